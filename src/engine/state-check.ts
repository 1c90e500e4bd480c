/**
 * The state check: every state file of the worktree parses at a schema
 * version this boulder knows, nothing was moved aside, no lock or temp file
 * was left behind, the decision log reads, and the user-level worktree index
 * is usable. It only looks: nothing on disk changes.
 *
 * It lives in the engine because it reads the state layer's files as they
 * are on disk; the CLI's doctor runs it as one of its checks and never
 * imports the state layer itself.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import {
	emptyTrust,
	type FileStore,
	inspectVersionedFile,
	isVerifyApproved,
	isWorkTrusted,
	listScopeFiles,
	parseAsideName,
	resolveLockOptions,
	SCOPE_SCHEMA_VERSION,
	STATE_DIR_NAME,
	type StateProblem,
	scanStateProblems,
	scopeFileSpec,
	type TrustFile,
	trustFileOf,
	trustFileSpec,
	trustRoot,
	type VersionedFileSpec,
	type WorksFile,
	worksFileSpec,
	worktreeIndexFile,
	worktreeIndexSpec,
} from "../state/index.js";
import type { DoctorCheck, DoctorContext, DoctorFinding } from "./doctor-types.js";

const CHECK = "state";

export const stateCheck: DoctorCheck = {
	name: CHECK,
	async run(context) {
		const { store } = context;
		if (!store.keepsState) return [...outsideProject(store), ...(await indexFindings(context))];
		const findings: DoctorFinding[] = store.external ? noProject(store) : [];
		const works = await inspectFile(store.paths.works, worksFileSpec({ worktree: store.worktree, harness: "unknown" }));
		findings.push(...works.findings);
		findings.push(...(await trustFindings(store)));
		const scopes = await listScopeFiles(store);
		let scopesOk = 0;
		for (const file of scopes) {
			const scope = await inspectFile(file, scopeFileSpec);
			if (scope.ok) scopesOk++;
			findings.push(...scope.findings);
		}
		const problems = await store.problems();
		const told = problems.some((problem) => problem.movedTo) ? await asideReasons(store) : new Map<string, string>();
		for (const problem of problems) findings.push(problemFinding(problem, told));
		findings.push(...(await indexFindings(context)));
		if (findings.some((finding) => finding.level !== "ok")) return findings;
		const parts = [
			works.version === null ? "no works file yet" : `works file v${works.version}`,
			`${scopesOk} scope file(s) v${SCOPE_SCHEMA_VERSION}`,
		];
		return [...findings, { check: CHECK, level: "ok", message: `${parts.join(", ")}; all readable`, fix: null }];
	},
};

/**
 * A folder that is no project: boulder is on there for a session's own todo
 * list, with the folder's state under the user's state folder. Said as a
 * warning, with the fix, since a plan (`boulder start`) or a project install
 * is what most people mean to have.
 */
function noProject(store: FileStore): DoctorFinding[] {
	const here = store.worktree;
	const leftHere = existsSync(path.join(here, STATE_DIR_NAME));
	return [
		{
			check: CHECK,
			level: "warn",
			message: `${here} is in no project (no git worktree up the tree, no work started here, boulder not installed here at a project scope): boulder continues a session's own todo list here and keeps this folder's state in ${store.dir}`,
			fix: "`boulder install <harness> --project` here keeps the state in this folder; `boulder start PLAN.md` rolls a plan here",
		},
		...(leftHere
			? [
					{
						check: CHECK,
						level: "warn" as const,
						message: `${path.join(here, STATE_DIR_NAME)} holds state an older boulder left outside any project; boulder does not use it here`,
						fix: "delete it, unless you mean to start a work here (`boulder start PLAN.md` picks it up)",
						file: path.join(here, STATE_DIR_NAME),
					},
				]
			: []),
	];
}

/**
 * Foreign state: live works boulder did not record for this user on this
 * machine (they came with a checkout or a copy), works that name another
 * folder, and verify commands not approved here. Read without moving
 * anything: a bad trust record is reported, not moved aside.
 */
async function trustFindings(store: FileStore): Promise<DoctorFinding[]> {
	const works = await inspectVersionedFile(
		store.paths.works,
		worksFileSpec({ worktree: store.worktree, harness: "unknown" }),
	);
	if (works.kind !== "ok") return [];
	const file = trustFileOf(store.stateHome, store.worktree);
	const record = await inspectVersionedFile(file, trustFileSpec);
	const findings: DoctorFinding[] = [];
	let trust: TrustFile = emptyTrust(trustRoot(store.worktree));
	if (record.kind === "ok" && record.value.root === trust.root) trust = record.value;
	else if (record.kind === "bad" || record.kind === "inaccessible") {
		findings.push({
			check: CHECK,
			level: "problem",
			message: `${file}, the record of the works you trust here, cannot be used (${record.detail}): every work here counts as foreign`,
			fix: "run `boulder trust` to write it afresh (the bad one is moved aside on the next write)",
			file,
		});
	}
	for (const work of liveWorks(works.value)) {
		const other = !path.isAbsolute(work.worktree) || path.resolve(work.worktree) !== store.worktree;
		if (other || !isWorkTrusted(trust, work)) {
			findings.push({
				check: CHECK,
				level: "warn",
				message: other
					? `foreign state: the work "${work.name}" (${work.planPath}) names ${JSON.stringify(work.worktree)} as its worktree, not ${store.worktree}; boulder neither nudges nor verifies it`
					: `foreign state: the work "${work.name}" (${work.planPath}) in ${store.paths.works} was not started by you on this machine (it came with the checkout or a copy, or from a boulder before trust records); boulder neither nudges nor verifies it`,
				fix: `read the plan and its verify commands; then \`boulder start ${work.planPath}\` or \`boulder trust\` takes it on. Otherwise nothing to do: it stays idle`,
				file: store.paths.works,
			});
			continue;
		}
		if (work.verify.length > 0 && !isVerifyApproved(trust, work.verify)) {
			findings.push({
				check: CHECK,
				level: "warn",
				message: `the verify commands of "${work.name}" changed since you approved them, and are held back: ${work.verify.map((command) => JSON.stringify(command)).join(", ")}`,
				fix: "`boulder trust` approves them, if you mean them to run",
				file: store.paths.works,
			});
		}
	}
	return findings;
}

function liveWorks(file: WorksFile) {
	return Object.values(file.works).filter((work) => work.status === "active" || work.status === "paused");
}

/** No project here: nothing is kept, and a state folder an older boulder left is not used. */
function outsideProject(store: FileStore): DoctorFinding[] {
	const findings: DoctorFinding[] = [
		{
			check: CHECK,
			level: "ok",
			message: `${store.worktree} is in no project (no git worktree up the tree, no work started here): boulder keeps no state here and nudges nobody`,
			fix: null,
		},
	];
	if (existsSync(store.dir)) {
		findings.push({
			check: CHECK,
			level: "warn",
			message: `${store.dir} holds state an older boulder left outside any project; boulder does not use it here`,
			fix: "delete it, unless you mean to start a work here (`boulder start PLAN.md` picks it up)",
			file: store.dir,
		});
	}
	return findings;
}

interface Inspected {
	ok: boolean;
	version: number | null;
	/** A newer boulder wrote it: the fix is to upgrade, not to start afresh. */
	future: boolean;
	findings: DoctorFinding[];
}

async function inspectFile<T>(file: string, spec: VersionedFileSpec<T>): Promise<Inspected> {
	const seen = await inspectVersionedFile(file, spec);
	switch (seen.kind) {
		case "missing":
			return { ok: true, version: null, future: false, findings: [] };
		case "ok": {
			if (seen.version < spec.currentVersion) {
				return {
					ok: true,
					version: seen.version,
					future: false,
					findings: [
						{
							check: CHECK,
							level: "warn",
							message: `${file} is a ${spec.label} at schema v${seen.version}; this boulder writes v${spec.currentVersion}`,
							fix: "nothing to do: it is migrated on the next write, and the old file is kept as a copy next to it",
							file,
						},
					],
				};
			}
			return { ok: true, version: seen.version, future: false, findings: [] };
		}
		case "inaccessible":
			return {
				ok: false,
				version: null,
				future: false,
				findings: [
					{
						check: CHECK,
						level: "problem",
						message: `${file} cannot be read: ${seen.detail}`,
						fix: `make it readable by you (boulder writes its files with mode 0600), or move it away`,
						file,
					},
				],
			};
		case "bad":
			return {
				ok: false,
				version: null,
				future: seen.reason === "future",
				findings: [
					{
						check: CHECK,
						level: "problem",
						message: `${file} is a ${spec.label} boulder cannot use (${seen.reason}: ${seen.detail}); until it is dealt with, nothing it covers is continued`,
						fix:
							seen.reason === "future"
								? "a newer boulder wrote it: upgrade boulder, or move the file away to start that state fresh"
								: "the next boulder command that uses it moves it aside and starts fresh; or move it away yourself",
						file,
					},
				],
			};
	}
}

function problemFinding(problem: StateProblem, told: Map<string, string>): DoctorFinding {
	if (problem.movedTo) {
		const why = told.get(path.basename(problem.movedTo)) ?? problem.reason.replace(/; moved aside untouched$/, "");
		if (parseAsideName(path.basename(problem.movedTo))?.reason === "future") {
			return {
				check: CHECK,
				level: "problem",
				message: `${problem.file} was written by a newer boulder (${why}) and was moved aside to ${problem.movedTo}; this boulder started it fresh`,
				fix: `upgrade boulder, then put ${path.basename(problem.movedTo)} back as ${path.basename(problem.file)} to carry on with that state; do not delete it, it is the only copy`,
				file: problem.movedTo,
			};
		}
		return {
			check: CHECK,
			level: "problem",
			message: `${problem.file} was unreadable (${why}) and was moved aside to ${problem.movedTo}; boulder started it fresh`,
			fix: `look at ${path.basename(problem.movedTo)} if you want to know what happened, then delete it`,
			file: problem.movedTo,
		};
	}
	return {
		check: CHECK,
		level: "warn",
		message: `${problem.file}: ${problem.reason}`,
		fix: "nothing to do unless it stays: with no boulder running, it is safe to delete",
		file: problem.file,
	};
}

/**
 * The exact reason a file was moved aside, by its aside name: the aside name
 * only says "corrupt" or "invalid", the decision log says what was wrong.
 */
async function asideReasons(store: FileStore): Promise<Map<string, string>> {
	const told = new Map<string, string>();
	for (const record of await store.readDecisions()) {
		if (record.kind !== "event" || record.reason !== "state-unreadable") continue;
		const match = / moved aside to ([^:]+): (.*)$/s.exec(record.detail);
		if (match?.[1] && match[2]) told.set(match[1], match[2]);
	}
	return told;
}

/**
 * The user-level index is a convenience list: a bad one is a warning, and a
 * copy moved aside is named, so an empty `boulder status --all` is explained.
 */
async function indexFindings(context: DoctorContext): Promise<DoctorFinding[]> {
	const file = worktreeIndexFile({ env: context.env });
	const seen = await inspectFile(file, worktreeIndexSpec);
	const findings = seen.findings.map((finding) =>
		finding.level === "problem"
			? {
					...finding,
					level: "warn" as const,
					fix: seen.future
						? "a newer boulder wrote it: upgrade boulder; until then `boulder status --all` misses worktrees"
						: "`boulder status --all` misses worktrees until it is rebuilt; the next boulder command in each worktree moves it aside and rebuilds it (in a worktree recorded in the last ten minutes, the first one after those)",
				}
			: finding,
	);
	const left = await scanStateProblems({
		folders: [path.dirname(file)],
		staleMs: resolveLockOptions().staleMs,
		decisionLog: { file, skippedLines: 0 },
		now: context.now,
	});
	for (const problem of left) {
		if (!problem.movedTo) {
			findings.push(problemFinding(problem, new Map()));
			continue;
		}
		const future = parseAsideName(path.basename(problem.movedTo))?.reason === "future";
		findings.push({
			check: CHECK,
			level: "warn",
			message: `${problem.file} was unusable (${problem.reason.replace(/; moved aside untouched$/, "")}) and was moved aside to ${problem.movedTo}; it is rebuilt as boulder is used in each worktree`,
			fix: future
				? `upgrade boulder, then put ${path.basename(problem.movedTo)} back as ${path.basename(problem.file)}`
				: `look at ${path.basename(problem.movedTo)} if you want to know what happened, then delete it`,
			file: problem.movedTo,
		});
	}
	return findings;
}
