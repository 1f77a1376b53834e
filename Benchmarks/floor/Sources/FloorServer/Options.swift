import Foundation

/// The server's command line. No ArgumentParser: the floor links nothing LifeSignal's read
/// path would not need.
struct Options: Sendable {
    enum Statement: String, Sendable {
        /// `client.query(…)`: parse, bind and execute an unnamed statement every time, as
        /// LifeSignal does today.
        case unnamed
        /// A named `PostgresPreparedStatement`, parsed once per connection.
        case prepared
    }

    /// What `GET /rest/v1/locations` answers from.
    enum Source: String, Sendable {
        /// PostgreSQL through a `PostgresClient` (`--database`, `--pool`, `--statement`).
        case postgres
        /// An SQLite file through `--readers` sqlite-nio connections running `--sql`.
        case sqlite
        /// The bytes of the file `--body`, from memory: no database at all, the HTTP stack
        /// answering a page of the read's size.
        case `static`
    }

    var source = Source.postgres
    var path = ""
    var sql = ""
    var readers = 3
    var port = 8080
    var database = "postgres://postgres@127.0.0.1:5432/postgres"
    var pool = 4
    var statement = Statement.unnamed
    /// Where Swift concurrency's jobs run.
    var executor = Executor.swiftPool

    enum Executor {
        /// Swift's own global executor.
        case swiftPool
        /// NIO's event loops as the generic executor, as `serve` does (`--nio-executor`; the
        /// same source file, `EventLoopConcurrencyExecutor.swift`, linked here).
        case eventLoops
        /// NIO's own installer, each job isolated to its loop, as `serve` did before de72133
        /// (`--nio-isolated-executor`).
        case eventLoopsIsolated
    }

    static let usage = """
        usage: FloorServer [--source postgres] --database URL [--pool N] [--statement unnamed|prepared] [--port N] [--nio-executor|--nio-isolated-executor]
               FloorServer --source sqlite --path FILE --sql STATEMENT [--readers N] [--port N] [--nio-executor|--nio-isolated-executor]
               FloorServer --source static --path FILE [--port N] [--nio-executor|--nio-isolated-executor]
        """

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: some Collection<String>) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--nio-executor" || flag == "--nio-isolated-executor" {
                options.executor = flag == "--nio-executor" ? .eventLoops : .eventLoopsIsolated
                continue
            }
            guard let value = rest.popFirst() else { throw Invalid(description: "\(flag) needs a value\n\(usage)") }
            switch flag {
            case "--port": options.port = try number(value, flag)
            case "--pool": options.pool = try number(value, flag)
            case "--database": options.database = value
            case "--path": options.path = value
            case "--sql": options.sql = value
            case "--readers": options.readers = try number(value, flag)
            case "--source":
                guard let source = Source(rawValue: value) else { throw Invalid(description: "unknown source \(value)\n\(usage)") }
                options.source = source
            case "--statement":
                guard let statement = Statement(rawValue: value) else { throw Invalid(description: "unknown statement kind \(value)\n\(usage)") }
                options.statement = statement
            default: throw Invalid(description: "unknown flag \(flag)\n\(usage)")
            }
        }
        return options
    }

    private static func number(_ value: String, _ flag: String) throws -> Int {
        guard let number = Int(value), number > 0 else { throw Invalid(description: "\(flag) takes a positive number, not \(value)") }
        return number
    }
}
