/// Work that waits for the database instead of failing fast.
///
/// Realtime's dispatcher reads each changed row as each subscriber; if one of those reads
/// failed because the database was restarting, that subscriber would silently miss the
/// change. Inside ``$waitsForDatabase`` (set by the dispatcher), an operation that finds the
/// database unreachable waits until it is back and runs again instead, so only idempotent
/// work (reads) may run there.
public enum DatabasePatience {
    @TaskLocal public static var waitsForDatabase = false

    /// The longest one statement may take before the engine stops it (``DatabaseLimits``
    /// sets the default); `nil` keeps the database's own. Migrations and the sweep, which may rightly take long, set a longer one.
    @TaskLocal public static var statementDeadline: Duration?
}
