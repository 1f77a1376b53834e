import LifeSignalBackend
import Logging
import ServiceLifecycle
import UnixSignals

/// Re-reads the exposed schema when asked, the two ways PostgREST is asked: `NOTIFY pgrst,
/// 'reload schema'` on PostgreSQL (so a migration run by any tool can tell every server at
/// once), and a Unix signal (SIGHUP for `lifesignal serve`). Until then `/rest/v1` keeps
/// answering from the cache it read at start.
struct SchemaReloader: Service {
    let schema: SchemaCache
    let database: any Database
    let signal: UnixSignal?
    let logger: Logger

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            // A NOTIFY sent while the LISTEN connection was down is lost, so each time the
            // LISTEN is back in place (not the first time) the cache is re-read anyway.
            let (relistened, listening) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            if let notifications = database.notifications(on: "pgrst", onListening: { listening.yield() }) {
                group.addTask {
                    do {
                        // An empty payload is PostgREST's "reload everything".
                        for try await payload in notifications where payload.isEmpty || payload == "reload schema" {
                            await reload(because: "NOTIFY pgrst")
                        }
                    } catch {
                        logger.warning("schema reload: LISTEN pgrst ended", metadata: ["error": "\(error)"])
                    }
                }
                group.addTask {
                    var first = true
                    for await _ in relistened {
                        if first { first = false } else { await reload(because: "LISTEN pgrst re-established") }
                    }
                }
            }
            if let signal {
                group.addTask {
                    for await _ in await UnixSignalsSequence(trapping: signal) { await reload(because: "signal \(signal)") }
                }
            }
            // A service that returns ends the whole server, so this one lives until the
            // server shuts down, even with nothing to listen to.
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    private func reload(because reason: String) async {
        do {
            try await schema.reload()
            logger.info("schema cache reloaded", metadata: ["reason": "\(reason)"])
        } catch {
            logger.error("schema cache reload failed; keeping the previous one", metadata: ["error": "\(error)"])
        }
    }
}
