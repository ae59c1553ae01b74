-- Users table.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE VIEW active_users AS
SELECT * FROM users WHERE active = 1;

CREATE INDEX idx_users_name ON users (name);

SELECT id, name FROM users;
