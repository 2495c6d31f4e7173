"""Agents, evaluation functions and headless matches. Agents see only `observation(seat)`."""
