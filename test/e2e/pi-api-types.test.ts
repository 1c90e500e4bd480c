import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { HARNESS_MODULES, requireHarness } from "./support/harnesses.js";

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../../", import.meta.url));

describe("boulder's own types for pi's extension API and the SDK entries", () => {
	it("type-check against the pinned pi's and SDKs' own declarations, with docs/sdk.md's examples", async () => {
		for (const pkg of [
			["@earendil-works", "pi-coding-agent"],
			["@anthropic-ai", "claude-agent-sdk"],
			["@openai", "codex-sdk"],
		]) {
			requireHarness(join(HARNESS_MODULES, ...pkg, "package.json"));
		}
		const tsc = join(REPO, "node_modules", "typescript", "bin", "tsc");
		// pi's declarations from wherever the harnesses are (`BOULDER_HARNESSES`: the compatibility lane's cache folder).
		const folder = await mkdtemp(join(tmpdir(), "boulder-pi-types-"));
		const config = join(folder, "tsconfig.json");
		await writeFile(
			config,
			JSON.stringify({
				extends: join(REPO, "test", "harnesses", "tsconfig.json"),
				compilerOptions: {
					// Resolved from the config's own folder otherwise: the project's @types.
					typeRoots: [join(REPO, "node_modules", "@types")],
					// A `paths` here replaces the extended one whole: every mapping again, from wherever the harnesses are.
					paths: {
						"@earendil-works/pi-coding-agent": [
							join(HARNESS_MODULES, "@earendil-works", "pi-coding-agent", "dist", "index.d.ts"),
						],
						"@anthropic-ai/claude-agent-sdk": [join(HARNESS_MODULES, "@anthropic-ai", "claude-agent-sdk", "sdk.d.ts")],
						"@openai/codex-sdk": [join(HARNESS_MODULES, "@openai", "codex-sdk", "dist", "index.d.ts")],
						"boulder-agent/sdk/*": [join(REPO, "src", "sdk", "*.ts")],
					},
				},
				files: [
					join(REPO, "test", "harnesses", "pi-api-compat.ts"),
					join(REPO, "test", "harnesses", "sdk-types-compat.ts"),
					...(await readdir(join(REPO, "examples", "sdk")))
						.filter((name) => name.endsWith(".ts"))
						.map((name) => join(REPO, "examples", "sdk", name)),
				],
			}),
		);
		const result = await run(process.execPath, [tsc, "-p", config], { cwd: REPO })
			.then(
				() => ({ code: 0, out: "" }),
				(error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, out: error.stdout ?? "" }),
			)
			.finally(() => rm(folder, { recursive: true, force: true }));
		expect(result.out).toBe("");
		expect(result.code).toBe(0);
	}, 300_000);
});
