"""Agent specs (issue 14, point 4): every option checked for type and range, in one line;
an option given twice refused; `name=LABEL` accepted anywhere and kept out of the agent.
On the command line a bad spec is one line on stderr and exit 2."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ai.agents import GreedyAgent, make_agent, spec_label, split_label
from ai.errors import AgentSpecError
from ai.expectimax import ExpectimaxAgent

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))

BAD = [
    ("expectimax:think_ms=-5", "think_ms must be more than 0, not -5"),
    ("expectimax:think_ms=0", "think_ms must be more than 0, not 0"),
    ("expectimax:think_ms=nan", "think_ms must be more than 0, not nan"),
    ("expectimax:think_ms=inf", "think_ms must be more than 0, not inf"),
    ("expectimax:think_ms=soon", "think_ms needs a number, not 'soon'"),
    ("expectimax:nodes=0", "nodes must be 1 or more, not 0"),
    ("expectimax:nodes=-3", "nodes must be 1 or more, not -3"),
    ("expectimax:nodes=1.5", "nodes needs a whole number, not '1.5'"),
    ("expectimax:samples=0", "samples must be 1 to 1000, not 0"),
    ("expectimax:samples=1001", "samples must be 1 to 1000, not 1001"),
    ("expectimax:samples=two", "samples needs a whole number, not 'two'"),
    ("expectimax:max_depth=-1", "max_depth must be 1 or more, not -1"),
    ("expectimax:max_depth=0", "max_depth must be 1 or more, not 0"),
    ("expectimax:chance_width=0", "chance_width must be 1 to 1000, not 0"),
    ("expectimax:chance_width=100000", "chance_width must be 1 to 1000, not 100000"),
    ("expectimax:paranoid=maybe", "paranoid needs true or false, not 'maybe'"),
    ("expectimax:prune=2", "prune needs true or false, not '2'"),
    ("expectimax:probe=on", "probe needs true or false, not 'on'"),
    ("expectimax:clock=sometimes", "clock needs true or false, not 'sometimes'"),
    ("expectimax:clock=true:nodes=500", "clock=true times think_ms; give think_ms too"),
    ("expectimax:nodes=5:nodes=6", "expectimax option nodes given twice"),
    ("expectimax:samples=2:think_ms=9:samples=2", "expectimax option samples given twice"),
    ("expectimax:depth=3", "expectimax takes chance_width, clock, exact, max_depth, "),
    ("expectimax:nodes", "not 'nodes'"),
    ("expectimax:nodes=", "not 'nodes='"),
    ("expectimax:", "not ''"),
    ("greedy:nodes=5", "greedy takes weights; not 'nodes=5'"),
    ("random:seed=5", "random takes no options; not 'seed=5'"),
    ("expectimax:name=", "name= needs a label without commas"),
    ("greedy:name=a:name=b", "name= given twice"),
    ("alphazero", "unknown agent 'alphazero'"),
]


@pytest.mark.parametrize(("spec", "message"), BAD)
def test_a_bad_option_is_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as raised:
        make_agent(spec, 1)
    text = str(raised.value)
    assert message in text and "\n" not in text


@pytest.mark.parametrize(
    ("spec", "field", "value"),
    [
        ("expectimax:think_ms=0.5", "think_ms", 0.5),
        ("expectimax:nodes=1", "nodes", 1),
        ("expectimax:nodes= 7", "nodes", 7),
        ("expectimax:samples=1", "samples", 1),
        ("expectimax:samples=1000", "samples", 1000),
        ("expectimax:chance_width=1000", "chance_width", 1000),
        ("expectimax:max_depth=500", "max_depth", 500),
        ("expectimax:max_depth=1", "max_depth", 1),
        ("expectimax:chance_width=1", "chance_width", 1),
        ("expectimax:paranoid=yes", "paranoid", True),
        ("expectimax:prune=false", "prune", False),
        ("expectimax:probe=1", "probe", True),
        ("expectimax:think_ms=50:clock=true", "clock", True),
        ("expectimax:think_ms=50:nodes=10", "nodes", 10),
    ],
)
def test_the_least_good_values_are_taken(spec: str, field: str, value: object) -> None:
    agent = make_agent(spec, 1)
    assert isinstance(agent, ExpectimaxAgent)
    assert getattr(agent, field) == value
    assert type(getattr(agent, field)) is type(value)


def test_no_budget_is_200_ms_and_a_seed_makes_it_nodes() -> None:
    agent = make_agent("expectimax", 1)
    assert isinstance(agent, ExpectimaxAgent)
    assert (agent.think_ms, agent.nodes, agent.clock) == (200.0, None, False)
    unseeded = make_agent("expectimax")
    assert isinstance(unseeded, ExpectimaxAgent) and unseeded.clock


@pytest.mark.parametrize(
    ("spec", "label", "bare"),
    [
        ("expectimax:think_ms=50:name=fast", "fast", "expectimax:think_ms=50"),
        ("greedy:name=g1", "g1", "greedy"),
        ("name=x", "name=x", "name=x"),  # the kind is never a label
        ("expectimax:think_ms=50", "expectimax:think_ms=50", "expectimax:think_ms=50"),
        ('cmd:"node a:b.js":name=js', "js", 'cmd:"node a:b.js"'),
        ('cmd:"node name=b.js"', 'cmd:"node name=b.js"', 'cmd:"node name=b.js"'),
    ],
)
def test_a_label_is_taken_off_the_spec(spec: str, label: str, bare: str) -> None:
    assert split_label(spec) == (label, bare)
    assert spec_label(spec) == label


def test_make_agent_takes_a_label_and_ignores_it() -> None:
    labelled = make_agent("expectimax:nodes=300:samples=2:name=small", 4)
    plain = make_agent("expectimax:nodes=300:samples=2", 4)
    assert isinstance(labelled, ExpectimaxAgent) and isinstance(plain, ExpectimaxAgent)
    assert vars(labelled) == vars(plain)
    assert isinstance(make_agent("greedy:name=g", 1), GreedyAgent)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(
        [P2PCARDS, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    "spec",
    [
        "expectimax:think_ms=-5",
        "expectimax:nodes=0",
        "expectimax:samples=0",
        "expectimax:max_depth=-1",
        "expectimax:chance_width=0",
        "expectimax:nodes=2:nodes=3",
        "expectimax:clock=true:nodes=9",
    ],
)
@pytest.mark.parametrize("command", ["simulate", "play"])
def test_the_command_line_says_what_is_wrong_in_one_line_and_exits_2(
    command: str, spec: str
) -> None:
    result = cli(command, "rpg-battle", "--agents", spec, "--seed", "1")
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "expectimax" in lines[0], result.stderr
    assert "Traceback" not in result.stderr
