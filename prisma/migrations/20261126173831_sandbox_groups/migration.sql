-- AlterTable
ALTER TABLE "SandboxHandoff" ADD COLUMN     "group" TEXT;

-- CreateTable
CREATE TABLE "SandboxGroup" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "description" TEXT,
    "owner" TEXT NOT NULL,
    "announce" BOOLEAN NOT NULL DEFAULT false,
    "restrict" BOOLEAN NOT NULL DEFAULT false,
    "inviteCode" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SandboxGroupMember" (
    "groupId" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "admin" TEXT,
    "seq" BIGSERIAL NOT NULL,

    CONSTRAINT "SandboxGroupMember_pkey" PRIMARY KEY ("groupId","phone")
);

-- CreateIndex
CREATE INDEX "SandboxGroupMember_phone_idx" ON "SandboxGroupMember"("phone");

-- AddForeignKey
ALTER TABLE "SandboxGroupMember" ADD CONSTRAINT "SandboxGroupMember_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "SandboxGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;
