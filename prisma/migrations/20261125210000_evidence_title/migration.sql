-- AlterTable
ALTER TABLE "evidence" ADD COLUMN     "excerpt" TEXT,
ADD COLUMN     "title" TEXT;
