/**
 * The trust record: kept in the user's state folder, keyed by the worktree's
 * real path, comparing verify lists whole, and failing closed (nothing
 * trusted) when it is missing, bad, or names another worktree.
 */
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileStore } from "../../src/state/file-store.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import {
	emptyTrust,
	isVerifyApproved,
	isWorkTrusted,
	MAX_APPROVED_LISTS,
	trustFileOf,
	withGrant,
} from "../../src/state/trust.js";

const clock = { now: () => 1_800_000_000_000 };

async function place() {
	const root = await mkdtemp(path.join(os.tmpdir(), "boulder-trust-"));
	const worktree = path.join(root, "wt");
	await mkdir(path.join(worktree, ".git"), { recursive: true });
	return { root, worktree, stateHome: path.join(root, "state") };
}

describe("the trust record", () => {
	it("trusts a work by its id and start time together, and a verify list only whole", () => {
		const trust = withGrant(
			emptyTrust("/w"),
			{ works: [{ id: "a", startedAt: 5 }], verify: [["npm test", "npm run lint"]] },
			9,
		);
		expect(isWorkTrusted(trust, { id: "a", startedAt: 5 })).toBe(true);
		expect(isWorkTrusted(trust, { id: "a", startedAt: 6 })).toBe(false);
		expect(isWorkTrusted(trust, { id: "__proto__", startedAt: 5 })).toBe(false);
		expect(isVerifyApproved(trust, ["npm test", "npm run lint"])).toBe(true);
		expect(isVerifyApproved(trust, ["npm test"])).toBe(false);
		expect(isVerifyApproved(trust, ["npm run lint", "npm test"])).toBe(false);
		expect(isVerifyApproved(trust, [])).toBe(true);
	});

	it(`keeps the newest ${MAX_APPROVED_LISTS} approved lists`, () => {
		let trust = emptyTrust("/w");
		for (let n = 0; n < MAX_APPROVED_LISTS + 5; n++) trust = withGrant(trust, { verify: [[`cmd ${n}`]] }, n);
		expect(trust.verify).toHaveLength(MAX_APPROVED_LISTS);
		expect(isVerifyApproved(trust, ["cmd 0"])).toBe(false);
		expect(isVerifyApproved(trust, [`cmd ${MAX_APPROVED_LISTS + 4}`])).toBe(true);
	});

	it("lives in the user's state folder, the same for the worktree and a link to it", async () => {
		const { root, worktree, stateHome } = await place();
		await symlink(worktree, path.join(root, "link"));
		await new FileStore(worktree, { clock, stateHome }).grantTrust({ works: [{ id: "a", startedAt: 1 }] });

		const viaLink = await new FileStore(path.join(root, "link"), { clock, stateHome }).readTrust();

		expect(trustFileOf(stateHome, worktree).startsWith(stateHome)).toBe(true);
		expect(viaLink && isWorkTrusted(viaLink, { id: "a", startedAt: 1 })).toBe(true);
	});

	it("trusts nothing when the record is corrupt, or names another worktree", async () => {
		const { worktree, stateHome } = await place();
		const store = new FileStore(worktree, { clock, stateHome });
		await store.grantTrust({ works: [{ id: "a", startedAt: 1 }] });
		const file = trustFileOf(stateHome, worktree);

		await writeFile(
			file,
			JSON.stringify({ schemaVersion: 1, root: "/elsewhere", works: { a: { startedAt: 1, at: 1 } }, verify: [] }),
		);
		expect((await store.readTrust())?.works).toEqual({});

		await writeFile(file, "{ not json");
		expect((await store.readTrust())?.works).toEqual({});
	});

	it("the memory store trusts everything by default, and keeps a record like the file store's when asked", async () => {
		expect(await new MemoryStore().readTrust()).toBeNull();
		const recorded = new MemoryStore("/w", { clock, trust: "recorded" });
		expect(isWorkTrusted(await recorded.readTrust(), { id: "a", startedAt: 1 })).toBe(false);
		await recorded.grantTrust({ works: [{ id: "a", startedAt: 1 }] });
		expect(isWorkTrusted(await recorded.readTrust(), { id: "a", startedAt: 1 })).toBe(true);
	});
});
