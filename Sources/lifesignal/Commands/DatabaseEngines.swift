import LifeSignalBackend
import LifeSignalPostgres
import LifeSignalSQLite

extension DatabaseEngine {
    /// Both engines: the executable is where they are wired in (the rules and the server know
    /// neither, `scripts/check-dependencies`).
    static let all: [DatabaseEngine] = [.postgres, .sqlite]
}
