"""coup.review: what happened in a finished game, told from its record.

- `story.tell(record)`: the end screen's facts — order of elimination, each player's
  claims, bluffs, challenges, blocks and coins, and the bluff timeline (every turn with
  the real hands and each claim marked true or bluff, caught or not). Pure: rules only.
- `frames.replay_frames(record)`: the game move by move for the replay viewer.
- `coach.review(record, seat)`: for each decision of a seat, the search bot's estimated
  win chance of every legal move from that seat's own view, its belief that a claim was a
  bluff, and the mistakes (uses the bots).
"""

from __future__ import annotations
