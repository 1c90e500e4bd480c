/**
 * The config when no file sets anything, as a value, for code that is not on
 * a hook's path; importing it builds the config schema (`defaultConfig()`
 * builds it only when called).
 */
import { type Config, defaultConfig } from "./config.js";

export const DEFAULT_CONFIG: Config = defaultConfig();
