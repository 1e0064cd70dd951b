"""Research environments: encoding, PettingZoo, Gymnasium."""
