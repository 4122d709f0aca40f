"""Environments for learning agents (docs/agents.md): the multi-colour games as a
PettingZoo AEC environment (:mod:`.pettingzoo_env`), the solo challenge as a Gymnasium
environment (:mod:`.gymnasium_env`), registered here as ``blokus_solo/Solo-v0``.

Needs the optional packages of the ``agents`` extra (``pip install 'blokus-solo[agents]'``).
"""

from solver.agents.gymnasium_env import ENV_ID, SoloEnv, register

register()

__all__ = ["ENV_ID", "SoloEnv", "register"]
