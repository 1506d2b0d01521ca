// The processes table (migration 022): each running process's heartbeat, and reading them back.
export {
  consentryVersion,
  defaultAliveWithinMs,
  defaultHeartbeatIntervalMs,
  forgetProcessesAfterMs,
  readProcesses,
  startProcessHeartbeat,
  type ProcessHeartbeat,
  type ProcessHeartbeatOptions,
  type ProcessRecord,
  type ReadProcessesOptions,
} from './heartbeat';
