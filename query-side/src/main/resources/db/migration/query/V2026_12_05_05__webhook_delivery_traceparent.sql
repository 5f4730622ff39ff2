-- The W3C traceparent of the event that made a delivery, so each try continues the trace that
-- began at intake (the receiver gets it as the traceparent header). Rows written before have none.
ALTER TABLE webhook_delivery ADD COLUMN traceparent VARCHAR(128);
