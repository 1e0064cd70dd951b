"""Examples that use mazo from outside: a trained policy as a plugin bot (``ppo_bot``)."""
