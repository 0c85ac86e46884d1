-- Schema version 5: the revenue audit of every run. At each run_routes the best run the company
-- could make (the route optimizer's proven optimum) is stored beside the declared run as the
-- engine read it, so an organizer sees what was left on the table without replaying the game.

CREATE TABLE runs (
    game_key        VARCHAR  NOT NULL,
    seq             INTEGER  NOT NULL,   -- the run_routes action (actions.seq)
    action_id       VARCHAR  NOT NULL,
    company         VARCHAR  NOT NULL,
    round           VARCHAR  NOT NULL,   -- "OR 2.1"
    seat            SMALLINT,            -- the president who decided the run; NULL without one
    declared        INTEGER,             -- the record's total; NULL when its routes carry no revenue
    engine          INTEGER,             -- the engine's total of the declared routes; NULL when it refuses them
    optimum         INTEGER  NOT NULL,   -- the best run's total
    proven          BOOLEAN  NOT NULL,   -- the optimum is proven (else: the best found within the budget)
    declared_routes VARCHAR  NOT NULL,   -- JSON: [{"train", "revenue", "stops": [[hex, node], ...], "connections": [[hex, ...], ...]}, ...]
    optimal_routes  VARCHAR  NOT NULL,   -- JSON, the same shape
    PRIMARY KEY (game_key, seq)
);
