"""Self-play: bots that play whole games by the rules (docs/selfplay.md)."""
