-- Plans are configuration: the plan of a tenant is a name from the configured table, no longer an enum.
ALTER TABLE "Tenant" ALTER COLUMN "plan" DROP DEFAULT;
ALTER TABLE "Tenant" ALTER COLUMN "plan" SET DATA TYPE TEXT USING "plan"::text;
ALTER TABLE "Tenant" ALTER COLUMN "plan" SET DEFAULT 'pro';
DROP TYPE "Plan";

-- The limits of the tenant itself (NULL: those of its plan).
ALTER TABLE "Tenant" ADD COLUMN "limitInstances" INTEGER,
ADD COLUMN "limitDailyMessages" INTEGER,
ADD COLUMN "limitRequestsPerMinute" INTEGER,
ADD COLUMN "limitRequestsPerHour" INTEGER,
ADD COLUMN "limitBurst" INTEGER;
