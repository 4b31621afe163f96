"""Pipelines that combine engines (the CP-SAT models included) into one
answer: Numberlink's well-designed check, and the generator built on it.  They
sit above the engines and ``cpmodels``; the base backends reach them through
their puzzle's ``KIND``, by name."""
