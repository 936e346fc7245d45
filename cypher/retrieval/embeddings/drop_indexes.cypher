// Before re-embedding with another dimension.
DROP INDEX episode_embedding IF EXISTS;
DROP INDEX fact_embedding IF EXISTS;
DROP INDEX summary_embedding IF EXISTS;
DROP INDEX entity_embedding IF EXISTS;
