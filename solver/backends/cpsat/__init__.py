"""CP-SAT: the model with its lazy connectivity cuts (``model``), symmetric layouts
solved on it (``symmetric``), and which parameters keep a proof (``params``)."""
