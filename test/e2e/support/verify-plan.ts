/**
 * The verify scenario every harness suite runs: a one-item plan whose verify
 * command fails, saying why, until greeting.txt exists. The failure's words
 * must reach the model in the nudge; the fix must complete the work.
 */
import { expect } from "vitest";
import { readWorks } from "./suite.js";

/** What the failing check prints, for the model to read. */
export const VERIFY_FAILURE = "VERIFY-FAILURE: greeting.txt is missing";

/** The plan (`plan.md`, verified by `node check.mjs`) and its check (relative path → content). */
export const VERIFY_FILES: Record<string, string> = {
	"plan.md": "---\nverify: node check.mjs\n---\n# Ship the greeting\n\n- [ ] Write the greeting\n",
	"check.mjs": `import { existsSync } from "node:fs";\nif (!existsSync("greeting.txt")) {\n\tconsole.error(${JSON.stringify(VERIFY_FAILURE)});\n\tprocess.exit(3);\n}\n`,
};

/** The plan's work ended completed, and its last verification passed. */
export async function expectVerifiedWork(project: string): Promise<void> {
	expect(await readWorks(project)).toEqual([
		expect.objectContaining({ status: "completed", lastVerification: expect.objectContaining({ passed: true }) }),
	]);
}
