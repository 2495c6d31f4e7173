"""Every registered game as an OpenSpiel game (`p2pcards.adapters.openspiel`, the `openspiel`
extra) and as a PettingZoo environment (`p2pcards.adapters.pettingzoo`, the `pettingzoo`
extra). What both share, stable action ids and the tensor layout, is `p2pcards.adapters.common`,
which needs neither extra (docs/adapters.md).
"""
