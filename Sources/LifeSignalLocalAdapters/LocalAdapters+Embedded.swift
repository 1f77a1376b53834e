import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalFunctions
import LifeSignalSQLite

extension LocalAdapters: EmbeddedAdapters {
    /// How ``LiveClients`` opens the `local` provider: the settings' database with `engines`
    /// (SQLite unless the app links `LifeSignalPostgres` and passes it too), closed
    /// with the clients.
    public static func embeddedBackend(engines: [DatabaseEngine] = [.sqlite]) -> EmbeddedBackend {
        EmbeddedBackend { settings in
            let backend = try await settings.open(engines: engines)
            return EmbeddedBackend.Opened(adapters: LocalAdapters(backend: backend), close: { try? await backend.close() })
        }
    }
}
