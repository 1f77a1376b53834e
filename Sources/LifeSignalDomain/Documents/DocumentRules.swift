import Foundation

/// What a stored document may hold and how writes combine with what is stored, defined once:
/// the backend enforces it, the adapters check before sending, the preview obeys it.
///
/// The limits are Firestore's, so a document accepted here is accepted by Firestore too.
public enum DocumentRules {
    /// Firestore's maximum document size, 1 MiB, counted as ``size(of:fields:)`` counts.
    public static let maximumDocumentBytes = 1_048_576
    /// Firestore's limit on a field name, in UTF-8 bytes.
    public static let maximumFieldNameBytes = 1500
    /// Firestore allows maps nested 20 deep.
    public static let maximumDepth = 20

    /// Who may read and write a path: a document or collection under `users/{uid}` belongs to
    /// that person (the original app's data model); anything else belongs to no one.
    public static func owner(of segments: [String]) -> String? {
        segments.count >= 2 && segments[0] == "users" ? segments[1] : nil
    }

    /// Field names: not empty, at most 1,500 bytes, not `__reserved__`.
    public static func validateFieldName(_ name: String) throws(DomainError) {
        guard !name.isEmpty else { throw .invalidArgument("A field name cannot be empty") }
        guard name.utf8.count <= maximumFieldNameBytes else {
            throw .invalidArgument("The field name \"\(name.prefix(40))…\" is longer than \(maximumFieldNameBytes) bytes")
        }
        guard !(name.hasPrefix("__") && name.hasSuffix("__") && name.count >= 4) else {
            throw .invalidArgument("The field name \"\(name)\" is reserved (names may not start and end with __)")
        }
    }

    /// Refuses what Firestore refuses: bad field names, maps nested too deep, arrays directly
    /// in arrays, timestamps outside years 1–9999, documents over 1 MiB.
    public static func validate(_ fields: [String: DocumentValue], at path: DocumentPath) throws(DomainError) {
        try validateFields(fields, depth: 1)
        let size = size(of: path, fields: fields)
        guard size <= maximumDocumentBytes else {
            throw .invalidArgument("The document \(path) is \(size) bytes; the limit is \(maximumDocumentBytes)")
        }
    }

    private static func validateFields(_ fields: [String: DocumentValue], depth: Int) throws(DomainError) {
        guard depth <= maximumDepth else { throw .invalidArgument("Maps are nested more than \(maximumDepth) deep") }
        for (name, value) in fields {
            try validateFieldName(name)
            try validateValue(value, depth: depth, inArray: false, field: name)
        }
    }

    private static func validateValue(_ value: DocumentValue, depth: Int, inArray: Bool, field: String) throws(DomainError) {
        switch value {
        case .map(let fields): try validateFields(fields, depth: depth + 1)
        case .array(let values):
            guard !inArray else { throw .invalidArgument("The field \(field) holds an array directly inside an array") }
            for element in values { try validateValue(element, depth: depth, inArray: true, field: field) }
        case .timestamp(let date):
            guard DocumentTimestamp.range.contains(date) else { throw .invalidArgument("The field \(field) holds a timestamp outside years 1 to 9999") }
        case .null, .bool, .integer, .double, .string, .bytes: break
        }
    }

    /// The document's size as Firestore counts storage: the name's bytes, each field name's
    /// bytes + 1, and each value (strings bytes + 1, numbers and timestamps 8, booleans and
    /// null 1, bytes their length), plus 32.
    public static func size(of path: DocumentPath, fields: [String: DocumentValue]) -> Int {
        let name = path.segments.reduce(16) { $0 + $1.utf8.count + 1 }
        return name + mapSize(fields) + 32
    }

    private static func mapSize(_ fields: [String: DocumentValue]) -> Int {
        fields.reduce(0) { $0 + $1.key.utf8.count + 1 + valueSize($1.value) }
    }

    private static func valueSize(_ value: DocumentValue) -> Int {
        switch value {
        case .null, .bool: 1
        case .integer, .double, .timestamp: 8
        case .string(let text): text.utf8.count + 1
        case .bytes(let data): data.count
        case .array(let values): values.reduce(0) { $0 + valueSize($1) }
        case .map(let fields): mapSize(fields)
        }
    }

    /// `stored` with `fields` written at their dotted paths, as Firestore's `updateData`: a
    /// nested path makes the maps it passes through (replacing a non-map there); every other
    /// field stays. Paths that overlap (`a` and `a.b`) are refused.
    public static func updating(_ stored: [String: DocumentValue], with fields: [String: DocumentValue]) throws(DomainError) -> [String: DocumentValue] {
        var paths: [(DocumentFieldPath, DocumentValue)] = []
        for (text, value) in fields { paths.append((try DocumentFieldPath(dotted: text), value)) }
        paths.sort { $0.0.description < $1.0.description }
        // Each path's proper prefixes (at most ``maximumDepth`` - 1) are looked up, not every
        // other path: a body may name tens of thousands of fields, and comparing pairs would
        // cost the square of that.
        let written = Set(paths.map(\.0.segments))
        for (path, _) in paths {
            for length in 1..<path.segments.count where written.contains(Array(path.segments.prefix(length))) {
                throw .invalidArgument("The field paths \(path.segments.prefix(length).joined(separator: ".")) and \(path) overlap")
            }
        }
        var result = stored
        for (path, value) in paths { set(value, at: path.segments[...], in: &result) }
        return result
    }

    private static func set(_ value: DocumentValue, at path: ArraySlice<String>, in fields: inout [String: DocumentValue]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            fields[first] = value
            return
        }
        var inner: [String: DocumentValue] = [:]
        if case .map(let existing)? = fields[first] { inner = existing }
        set(value, at: path.dropFirst(), in: &inner)
        fields[first] = .map(inner)
    }

    /// `stored` with `fields` merged in, as `setData(_:merge: true)`: maps merge field by field
    /// at every depth, anything else is replaced.
    public static func merging(_ stored: [String: DocumentValue], with fields: [String: DocumentValue]) -> [String: DocumentValue] {
        var result = stored
        for (name, value) in fields {
            if case .map(let new) = value, case .map(let old)? = result[name] {
                result[name] = .map(merging(old, with: new))
            } else {
                result[name] = value
            }
        }
        return result
    }

    /// The dotted paths of every leaf of `fields` (an empty map is a leaf): what a merge
    /// writes, as Firestore's update mask.
    public static func leafPaths(of fields: [String: DocumentValue], prefix: [String] = []) -> [[String]] {
        fields.sorted { $0.key < $1.key }.flatMap { name, value -> [[String]] in
            if case .map(let inner) = value, !inner.isEmpty { return leafPaths(of: inner, prefix: prefix + [name]) }
            return [prefix + [name]]
        }
    }
}
