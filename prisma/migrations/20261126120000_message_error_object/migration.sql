-- A failed message's error becomes {code, message}. Errors written as text were "<code>: <message>",
-- or the bare sentence of a message that waited 24 hours.
ALTER TABLE "Message" ALTER COLUMN "error" TYPE JSONB USING (
  CASE
    WHEN "error" IS NULL THEN NULL
    WHEN "error" ~ '^[A-Za-z0-9_]+: ' THEN jsonb_build_object('code', substring("error" from '^([A-Za-z0-9_]+): '), 'message', substring("error" from '^[A-Za-z0-9_]+: (.*)$'))
    WHEN "error" LIKE 'No connected instance carried the message%' THEN jsonb_build_object('code', 'expired', 'message', "error")
    ELSE jsonb_build_object('code', 'failed', 'message', "error")
  END
);
