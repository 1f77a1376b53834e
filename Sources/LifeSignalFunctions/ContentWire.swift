import Foundation
import LifeSignalDomain

/// Content records as the functions reply with them: the rows PostgREST would return.
public enum ContentWire {
    /// Reads the records of a reply; times in ``Timestamp`` form (what ``reply(record:)`` writes).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Timestamp.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a time"))
            }
            return date
        }
        return decoder
    }

    public static func reply(record: some ContentRecord) throws -> Data {
        try JSONSerialization.data(withJSONObject: try object(record), options: [.sortedKeys])
    }

    /// `{"records": [...]}`.
    public static func reply(records: [some ContentRecord]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["records": try records.map(object)], options: [.sortedKeys])
    }

    /// The record's columns, with its ids lower-case as the database prints them.
    private static func object(_ record: some ContentRecord) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.format(date))
        }
        guard var object = try JSONSerialization.jsonObject(with: encoder.encode(record)) as? [String: Any] else {
            throw DomainError.internal("\(type(of: record).table.noun) did not encode as an object")
        }
        for key in ["id", "created_by"] {
            if let id = object[key] as? String { object[key] = id.lowercased() }
        }
        return object
    }
}
