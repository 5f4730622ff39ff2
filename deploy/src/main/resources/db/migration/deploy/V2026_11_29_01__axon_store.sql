-- Axon's event store, token store, saga store and dead-letter queue on PostgreSQL.
-- Serialized data is bytea (never oid/large objects); names are snake_case and match the
-- schema beans in io.herald.deploy.axon.AxonPersistenceConfiguration.

CREATE TABLE domain_event_entry (
    global_index         BIGSERIAL    NOT NULL PRIMARY KEY,
    aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number      BIGINT       NOT NULL,
    type                 VARCHAR(255),
    event_identifier     VARCHAR(255) NOT NULL UNIQUE,
    meta_data            BYTEA,
    payload              BYTEA        NOT NULL,
    payload_revision     VARCHAR(255),
    payload_type         VARCHAR(255) NOT NULL,
    time_stamp           VARCHAR(255) NOT NULL,
    -- concurrent appends to one aggregate collide here and surface as a clean conflict
    CONSTRAINT domain_event_entry_aggregate_sequence_key UNIQUE (aggregate_identifier, sequence_number)
);

CREATE TABLE snapshot_event_entry (
    aggregate_identifier VARCHAR(255) NOT NULL,
    sequence_number      BIGINT       NOT NULL,
    type                 VARCHAR(255) NOT NULL,
    event_identifier     VARCHAR(255) NOT NULL UNIQUE,
    meta_data            BYTEA,
    payload              BYTEA        NOT NULL,
    payload_revision     VARCHAR(255),
    payload_type         VARCHAR(255) NOT NULL,
    time_stamp           VARCHAR(255) NOT NULL,
    PRIMARY KEY (aggregate_identifier, sequence_number)
);

CREATE TABLE token_entry (
    processor_name VARCHAR(255) NOT NULL,
    segment        INTEGER      NOT NULL,
    token          BYTEA,
    token_type     VARCHAR(255),
    "timestamp"    VARCHAR(255),
    owner          VARCHAR(255),
    PRIMARY KEY (processor_name, segment)
);

CREATE TABLE saga_entry (
    saga_id         VARCHAR(255) NOT NULL PRIMARY KEY,
    revision        VARCHAR(255),
    saga_type       VARCHAR(255),
    serialized_saga BYTEA
);

CREATE TABLE association_value_entry (
    id                BIGSERIAL    NOT NULL PRIMARY KEY,
    association_key   VARCHAR(255),
    association_value VARCHAR(255),
    saga_id           VARCHAR(255),
    saga_type         VARCHAR(255)
);
CREATE INDEX association_value_entry_lookup_idx
    ON association_value_entry (saga_type, association_key, association_value);
CREATE INDEX association_value_entry_saga_idx ON association_value_entry (saga_id, saga_type);

CREATE TABLE dead_letter_entry (
    dead_letter_id       VARCHAR(255)  NOT NULL PRIMARY KEY,
    processing_group     VARCHAR(255)  NOT NULL,
    sequence_identifier  VARCHAR(255)  NOT NULL,
    sequence_index       BIGINT        NOT NULL,
    message_type         VARCHAR(255)  NOT NULL,
    event_identifier     VARCHAR(255)  NOT NULL,
    time_stamp           VARCHAR(255)  NOT NULL,
    payload_type         VARCHAR(255)  NOT NULL,
    payload_revision     VARCHAR(255),
    payload              BYTEA         NOT NULL,
    meta_data            BYTEA,
    aggregate_type       VARCHAR(255),
    aggregate_identifier VARCHAR(255),
    sequence_number      BIGINT,
    token_type           VARCHAR(255),
    token                BYTEA,
    enqueued_at          VARCHAR(255)  NOT NULL,
    last_touched         VARCHAR(255),
    processing_started   VARCHAR(255),
    cause_type           VARCHAR(255),
    cause_message        VARCHAR(1023),
    diagnostics          BYTEA,
    CONSTRAINT dead_letter_entry_sequence_key UNIQUE (processing_group, sequence_identifier, sequence_index)
);
CREATE INDEX dead_letter_entry_group_idx ON dead_letter_entry (processing_group);
CREATE INDEX dead_letter_entry_sequence_idx ON dead_letter_entry (processing_group, sequence_identifier);
