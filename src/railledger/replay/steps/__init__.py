"""The generic steps rounds are made of; titles subclass them or add their own.

| module | steps |
|---|---|
| `shares` | buying, selling and starting companies in a stock turn |
| `draft` | a draft and an open bid auction of private companies |
| `track` | laying track, and privates that lay track |
| `tokens` | placing stations, and privates that place them |
| `routes` | running trains |
| `dividends` | paying or withholding |
| `trains` | buying trains (with emergency money) and discarding over the limit |
| `companies` | a company buying a private from a player |
| `issue` | a company issuing and redeeming its shares |
"""
