import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The cloud functions, addressed by name with JSON in and out: what `/functions/v1/<name>`
/// serves. Each decodes its request, calls a service and encodes the reply in the shape the
/// seeds give; rules stay in the services.
///
/// Functions are registered per area (`BackendFunctions+CheckIn.swift`, …) into ``registry``.
public struct BackendFunctions: Sendable {
    let backend: LifeSignalBackend

    public enum Failure: Error, Sendable, Hashable {
        /// No function has this name.
        case unknownFunction(String)
        /// The body is not the JSON the function takes.
        case badRequest(String)
    }

    /// One function: runs with the backend, the caller and the raw JSON body.
    public typealias Handler = @Sendable (LifeSignalBackend, Caller, Data) async throws -> Data

    /// Every function by name, from the areas' registrations (`BackendFunctions+CheckIn.swift`,
    /// …). Built when the backend opens (``LifeSignalBackend/open(database:configuration:)``
    /// reads it), so a name registered twice or a catalogued function without a handler
    /// stops the program at start with a message naming it, not at a request.
    static let registry: FunctionTable = {
        let all = checkInFunctions + domainFunctions + readFunctions + documentFunctions + contentFunctions + deliveryFunctions
        do { return try FunctionTable(all, catalogue: CloudFunctions.names) } catch {
            fatalError("The cloud functions are registered wrongly: \(error)")
        }
    }()

    /// Every function's name; asked on each `/functions/v1` request, so built once.
    public static let names: Set<String> = Set(registry.handlers.keys)

    /// Runs function `name` for `caller` with a JSON `body` (empty means `{}`); returns the JSON reply.
    public func call(_ name: String, caller: Caller, body: Data) async throws -> Data {
        guard let handler = Self.registry.handlers[name] else { throw Failure.unknownFunction(name) }
        do {
            return try await handler(backend, caller, body)
        } catch let error as DatabaseError where error.isForeignKeyViolation {
            // A row the call refers to is gone (the caller's own deleted profile, a contact)
            // and the rule did not check first: that is not found, for every adapter alike.
            throw DomainError.notFound("A row this request refers to")
        } catch let error as DatabaseError where error.sqlState == "22021" {
            // Text holding a NUL, refused by both engines: the caller's input.
            throw DomainError.invalidArgument("Text must not contain the NUL character (\\u0000)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        let data = body.isEmpty ? Data("{}".utf8) : body
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let failure = unwholeNumberFailure(in: data)
            {
                throw failure
            }
            throw Failure.badRequest(describe(error))
        }
    }

    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }

    /// A person-readable account of why a JSON body did not decode.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "Invalid JSON body: \(context.debugDescription)" : "Invalid value for \(path): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _):
            return "Missing field \(key.stringValue)"
        default:
            return "Invalid JSON body"
        }
    }
}
