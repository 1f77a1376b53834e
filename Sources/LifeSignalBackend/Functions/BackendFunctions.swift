import Foundation
import LifeSignalDomain

/// The cloud functions, addressed by name with JSON in and out: what `/functions/v1/<name>`
/// serves. Each decodes its request, calls a service and encodes the reply in the shape the
/// seeds give; rules stay in the services.
public struct BackendFunctions: Sendable {
    let backend: LifeSignalBackend

    public enum Failure: Error, Sendable, Hashable {
        /// No function has this name.
        case unknownFunction(String)
        /// The body is not the JSON the function takes.
        case badRequest(String)
    }

    public static let names: Set<String> = ["check-in"]

    /// Runs function `name` for `caller` with a JSON `body` (empty means `{}`); returns the JSON reply.
    public func call(_ name: String, caller: Caller, body: Data) async throws -> Data {
        switch name {
        case "check-in":
            let request = try decode(CheckInRequest.self, from: body)
            let result = try await backend.checkIns.checkIn(caller: caller, source: request.source ?? .manual)
            let status = try await backend.checkIns.status(caller: caller)
            return try encode(CheckInResponse(
                success: true, lastCheckInTime: Timestamp.format(result.checkedInAt),
                nextCheckInTime: Timestamp.format(result.deadline), checkInInterval: Int(status.interval.seconds)))
        default:
            throw Failure.unknownFunction(name)
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        let data = body.isEmpty ? Data("{}".utf8) : body
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw Failure.badRequest(Self.describe(error))
        }
    }

    private func encode<T: Encodable>(_ value: T) throws -> Data {
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

/// `check-in` request: optional source (manual by default).
public struct CheckInRequest: Codable, Sendable {
    public var source: CheckInService.Source?
    public init(source: CheckInService.Source? = nil) { self.source = source }
}

/// `check-in` reply, after seed `001_…`'s process-check-in.
public struct CheckInResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var lastCheckInTime: String
    public var nextCheckInTime: String
    public var checkInInterval: Int
}
