/** `boulder ui` as a command: it prints the address with its token, serves it until stopped, and says when a port is taken. */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { PLAN, sandbox } from "./helpers.js";

describe("boulder ui", () => {
	it("prints an address on 127.0.0.1 with a token, answers it, and stops when told to", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const stop = new AbortController();
		let out = "";
		let printed: (url: string) => void = () => {};
		const address = new Promise<string>((resolve) => {
			printed = resolve;
		});
		const ran = main(["ui"], {
			stdout: {
				write: (chunk: string) => {
					out += chunk;
					const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
					if (found) printed(found[0]);
				},
			},
			stderr: { write: () => {} },
			env: box.env,
			cwd: box.worktree,
			clock: box.clock,
			signal: stop.signal,
		});
		const url = new URL(await address);
		const token = url.searchParams.get("token");
		expect(token).toMatch(/^[\w-]{43}$/);
		const view = await fetch(new URL("/api/view", url), { headers: { Authorization: `Bearer ${token}` } });
		expect((await view.json()).worktrees[0].works[0].name).toBe("Ship the CLI");
		expect((await fetch(new URL("/api/view", url))).status).toBe(401);
		stop.abort();
		expect(await ran).toBe(0);
		await expect(fetch(new URL("/api/view", url))).rejects.toThrow();
	});

	it("says which port is taken, as a usage error", async () => {
		const box = await sandbox();
		const taken = createServer();
		await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
		const port = (taken.address() as { port: number }).port;
		try {
			const ran = await box.run(["ui", "--port", String(port)]);
			expect(ran.code).toBe(2);
			expect(ran.stderr).toContain(`--port ${port}: that port is in use on 127.0.0.1`);
		} finally {
			taken.close();
		}
		expect((await box.run(["ui", "--port", "70000"])).code).toBe(2);
	});
});
