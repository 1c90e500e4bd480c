/** The state layer's public surface: the only code that touches boulder's files. */
export { DIR_MODE, ensureDir, FILE_MODE, isTempFileName, syncDir, writeFileAtomic } from "./atomic-write.js";
export {
	appendDecisionLine,
	DEFAULT_DECISION_LOG,
	type DecisionLogOptions,
	type DecisionLogRead,
	parseDecisionLine,
	type ReadDecisionsOptions,
	readDecisionLines,
	rotatedLogFile,
} from "./decision-log.js";
export { type LogPosition, readDecisionsSince, readNewestDecisions, type TailRead } from "./decision-tail.js";
export {
	FileStore,
	type FileStoreOptions,
	SCOPE_SCHEMA_VERSION,
	ScopeFile,
	STATE_DIR_NAME,
	scopeFileSpec,
	WORKS_FILE_NAME,
} from "./file-store.js";
export { FOLDERS_DIR_NAME, folderStateDir } from "./folder-state.js";
export { listScopeFiles, type StateScan, scanStateProblems } from "./inspect.js";
export {
	DEFAULT_LOCK_OPTIONS,
	type LockHandle,
	type LockOptions,
	lockFolderOf,
	resolveLockOptions,
	withLock,
} from "./lock.js";
export { MemoryStore } from "./memory-store.js";
export {
	PLAN_SUMMARIES_FILE,
	type PlanSummaries,
	PlanSummariesFile,
	PlanSummaryEntry,
	readPlanSummaries,
	writePlanSummaries,
} from "./plan-summaries.js";
export {
	hasStartedWork,
	INSTALL_MARKER_NAME,
	markInstalledProject,
	type ProjectMarker,
	projectMarkerOf,
} from "./project-marker.js";
export { isSafeScopeKey, MAX_SCOPE_KEY_BYTES, scopeFilePath, scopeKeyProblem } from "./scope-path.js";
export { describeFileKind, isNotAStateFile, NotAStateFileError } from "./state-file.js";
export {
	type Clock,
	type Read,
	type StateProblem,
	type Store,
	systemClock,
	type Update,
} from "./store.js";
export {
	ApprovedVerify,
	emptyTrust,
	grantTrust,
	isVerifyApproved,
	isWorkTrusted,
	MAX_APPROVED_LISTS,
	readTrust,
	TRUST_DIR_NAME,
	TrustedWork,
	TrustFile,
	type TrustGrant,
	type TrustView,
	trustFileOf,
	trustFileSpec,
	trustRoot,
	withGrant,
} from "./trust.js";
export {
	type ClaimResult,
	isLive,
	processAlive,
	VERIFY_CLAIMS_DIR_NAME,
	VerifyClaim,
	VerifyClaimsFile,
	verifyClaimsFileOf,
	verifyClaimsSpec,
} from "./verify-claims.js";
export {
	type AsideFile,
	AsideReason,
	asideName,
	type Inspection,
	inspectVersionedFile,
	keepCopy,
	type Migration,
	moveAside,
	parseAsideName,
	type ReadVersionedOptions,
	readVersionedFile,
	schemaVersionOf,
	utcStamp,
	type VersionedFileSpec,
	type VersionedRead,
	writeVersionedFile,
} from "./versioned-file.js";
export {
	emptyWorksFile,
	migrateWorksV1ToV2,
	WORKS_SCHEMA_VERSION,
	Work,
	WorkSession,
	WorkStatus,
	WorksFile,
	WorksFileV1,
	type WorksMigrationContext,
	WorkVerification,
	worksFileSpec,
} from "./works.js";
export {
	boulderStateHome,
	listWorktrees,
	readWorktreeIndex,
	readWorktreeList,
	recordWorktree,
	refreshWorktree,
	WORKTREE_INDEX_FILE,
	WORKTREE_STAMPS_DIR,
	WorktreeEntry,
	WorktreeIndex,
	type WorktreeIndexOptions,
	type WorktreeList,
	worktreeIndexFile,
	worktreeIndexSpec,
	worktreeStampFile,
} from "./worktree-index.js";
