// One secret per name for the service itself (the erasure digest's key), found by its name.
CREATE CONSTRAINT server_secret_name IF NOT EXISTS FOR (n:ServerSecret) REQUIRE n.name IS UNIQUE;
