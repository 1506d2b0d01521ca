// Infrastructure shared by every service: configuration, Postgres, the event store, the bus.
export * from './config/config';
export * from './db/pool';
export { migrateDatabase } from './db/migrate';
export { isTransientDatabaseError } from './db/errors';
export { findUnsafeText, unsafeTextReason, withSafeText, UnsafeTextError, type UnsafeText } from './http/safe-text';
export { expandIpv6, ipForLog, normaliseIp, truncateIp } from './http/ip-address';
export { isBlockedAddress, systemLookup, type HostLookup } from './net/address-policy';
export { createSmtpMailer, type Mailer, type MailMessage, type SmtpMailerOptions } from './mail/mailer';
export * from './event-store';
export * from './ledger';
export * from './processes';
export * from './bus';
export * from './bus/notifier';
export * from './queue';
export { startEmbeddedPostgres, EmbeddedPostgresError, type EmbeddedPostgresMode, type RunningEmbeddedPostgres } from './embedded/embedded-postgres';
export { createLogger, logFormats, resolveLogFormat, type LogFormat, type Logger } from './logging/logger';
