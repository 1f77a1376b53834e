import Logging

/// `StreamLogHandler`'s output, with its metadata kept as it is until a line is written.
///
/// `StreamLogHandler` renders all of its metadata into text every time a key is set.
/// Hummingbird sets a request id on every request's logger, so each request paid for a
/// rendering that almost never reached a log line (2–3 % of the server's CPU on a
/// `/rest/v1` read, docs/performance.md). Here the metadata travels with the event instead and
/// is rendered only when a line is written at the handler's level, in the same format.
struct ServerLogHandler: LogHandler {
    private var output: StreamLogHandler
    var metadata: Logger.Metadata = [:]

    init(label: String) {
        output = StreamLogHandler.standardError(label: label)
    }

    var logLevel: Logger.Level {
        get { output.logLevel }
        set { output.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { output.metadataProvider }
        set { output.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            // The event's own metadata wins over the logger's, as in StreamLogHandler.
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        output.log(event: event)
    }
}
