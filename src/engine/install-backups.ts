/**
 * The installers' door to their backups and created-file notes, which are
 * state of the user's (`state/install-backups.ts`): adapters reach the state
 * layer only through the engine.
 */
export {
	backupFile,
	backupFolder,
	type CreatedNote,
	dropCreatedNote,
	forgetBackups,
	keepBackup,
	noteCreated,
	readCreatedNote,
} from "../state/install-backups.js";
