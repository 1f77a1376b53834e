import Foundation

/// One cloud function: its name on the wire (`/functions/v1/<name>`, a Firebase callable of
/// that name, or an in-process call), the request it takes and the reply it gives.
///
/// The types are the contract: an adapter calling ``CloudFunctions/checkIn`` can only send a
/// ``CheckInRequest`` and only read a ``CheckInResponse``, and the backend registers its
/// handler for the same value, so the two sides cannot drift apart by a typo in a name or a
/// reply decoded as another function's.
public struct CloudFunction<Request: Encodable & Sendable, Response: Decodable & Sendable>: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    public var description: String { name }
}

/// The body of a function that takes nothing: `{}`.
public struct EmptyRequest: Codable, Sendable, Hashable {
    public init() {}
}
