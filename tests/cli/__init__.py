"""The terminal client: ``mazo`` commands per game (``test_<game>.py``) and the terminal."""
