import Foundation

/// The JSON of a Firestore request body: plain JSON with typed Firestore values as leaves.
///
/// Request bodies (queries, commits) mix structure the library writes (`"op":"EQUAL"`) with
/// user values that must keep their typed form (`{"integerValue":"42"}`); this enum holds
/// both so one `Encodable` walk writes the whole body.
indirect enum FirestoreWireJSON: Encodable, Sendable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case array([FirestoreWireJSON])
    case object([String: FirestoreWireJSON])
    case value(FirestoreValue)
    case fields([String: FirestoreValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .value(let value): try container.encode(value)
        case .fields(let value): try container.encode(value)
        }
    }
}
