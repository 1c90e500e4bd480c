import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Config } from "../../src/core/config.js";
import { Engine } from "../../src/engine/engine.js";
import { filePlans } from "../../src/engine/plan-files.js";
import { FileStore } from "../../src/state/file-store.js";
import { tempWorktree } from "./helpers.js";

const child = new URL("./children/idle.mjs", import.meta.url).pathname;

function answer(worktree: string, goFile: string, readyFile: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const proc = spawn(process.execPath, [child, worktree, goFile, readyFile], { stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		let err = "";
		proc.stdout.on("data", (chunk) => {
			out += chunk;
		});
		proc.stderr.on("data", (chunk) => {
			err += chunk;
		});
		proc.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`))));
	});
}

describe("engine across processes", () => {
	it("gives exactly one inject when two processes answer the same idle at once (10 rounds)", async () => {
		for (let round = 0; round < 10; round++) {
			const worktree = await tempWorktree();
			const engine = new Engine({ store: new FileStore(worktree), config: Config.parse({}), plans: filePlans });
			const ref = { harness: "test", sessionId: "ses_race" };
			await engine.turnStarted(ref, "user");
			await engine.todosChanged(ref, [
				{ content: "one", status: "completed" },
				{ content: "two", status: "pending" },
			]);
			await engine.turnEnded(ref, { outcome: "end" });
			const goFile = path.join(worktree, "go");
			const ready = [path.join(worktree, "ready-1"), path.join(worktree, "ready-2")];
			const answers = Promise.all(ready.map((file) => answer(worktree, goFile, file)));
			// Both processes have loaded the engine before either may answer: the race is real.
			await until(() => ready.every((file) => existsSync(file)));
			await writeFile(goFile, "");
			const kinds = (await answers).sort();
			expect(kinds).toEqual(["inject", "skip"]);
			const log = await new FileStore(worktree).readDecisions();
			expect(
				log
					.filter((record) => record.kind !== "event")
					.map((record) => record.reason)
					.sort(),
			).toEqual(["continue", "duplicate"]);
		}
	});
});

async function until(test: () => boolean): Promise<void> {
	for (let tries = 0; tries < 2_000; tries++) {
		if (test()) return;
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	throw new Error("the child processes never became ready");
}
