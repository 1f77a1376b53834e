import Foundation

/// Where a document lives: `users/{uid}`, `users/{uid}/contacts/{id}` — segments alternating
/// collection id and document id, as Firestore names them.
///
/// Validated once when made, so a path that reaches an adapter or the backend is always well
/// formed (``DocumentPathRules``); a bad one is ``DomainError/invalidArgument(_:)``, which
/// ``DocumentStorageError`` reads as ``DocumentStorageError/invalidData``.
public struct DocumentPath: SlashSeparatedPath, Comparable {
    /// The segments, an even number of them (at least two).
    public let segments: [String]

    /// Parses `collection/id[/collection/id…]`.
    public init(_ text: String) throws(DomainError) {
        try self.init(segments: try DocumentPathRules.split(text))
    }

    public init(segments: [String]) throws(DomainError) {
        try DocumentPathRules.validate(segments, document: true)
        self.segments = segments
    }

    /// The collection the document is in.
    public var parent: CollectionPath { CollectionPath(checked: Array(segments.dropLast())) }

    /// A sub-collection of this document.
    public func collection(_ id: String) throws(DomainError) -> CollectionPath {
        try CollectionPath(segments: segments + [id])
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.segments.lexicographicallyPrecedes(rhs.segments) }
}

/// A collection of documents: `users`, `users/{uid}/contacts` — an odd number of segments.
public struct CollectionPath: SlashSeparatedPath {
    public let segments: [String]

    public init(_ text: String) throws(DomainError) {
        try self.init(segments: try DocumentPathRules.split(text))
    }

    public init(segments: [String]) throws(DomainError) {
        try DocumentPathRules.validate(segments, document: false)
        self.segments = segments
    }

    /// Segments already known to be valid (a document's parent).
    init(checked segments: [String]) { self.segments = segments }

    /// The document this collection hangs under; `nil` for a root collection.
    public var parent: DocumentPath? {
        segments.count > 1 ? try? DocumentPath(segments: Array(segments.dropLast())) : nil
    }

    /// The document `id` in this collection.
    public func document(_ id: String) throws(DomainError) -> DocumentPath {
        try DocumentPath(segments: segments + [id])
    }
}

/// What document and collection paths share: validated segments, written with `/` as
/// Firestore writes them (`users/u1/contacts/c1`), and encoded as that string.
public protocol SlashSeparatedPath: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The segments, already validated.
    var segments: [String] { get }
    /// Parses and validates `a/b/c`.
    init(_ text: String) throws(DomainError)
}

extension SlashSeparatedPath {
    /// The path as Firestore writes it.
    public var rawValue: String { segments.joined(separator: "/") }
    public var description: String { rawValue }
    /// The last segment: a document's or collection's id.
    public var id: String { segments[segments.count - 1] }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try Self(text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Firestore's limits on paths, kept here so every backend refuses the same paths.
public enum DocumentPathRules {
    /// Firestore's limit on one id, in UTF-8 bytes.
    public static let maximumSegmentBytes = 1500
    /// A whole path, in UTF-8 bytes. Tighter than Firestore's 6 KiB so that a change
    /// notification naming the path before and after (PostgreSQL's `NOTIFY` carries at most
    /// 8,000 bytes) always fits.
    public static let maximumPathBytes = 1024
    /// Firestore allows 100 levels of sub-collections.
    public static let maximumSegments = 200

    static func split(_ text: String) throws(DomainError) -> [String] {
        guard !text.isEmpty else { throw .invalidArgument("A document path cannot be empty") }
        return text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    /// Refuses empty, `.`/`..`, `__reserved__` or over-long segments, paths that are too long
    /// or too deep, and a document path with an odd number of segments (or the reverse).
    static func validate(_ segments: [String], document: Bool) throws(DomainError) {
        let text = segments.joined(separator: "/")
        let kind = document ? "document" : "collection"
        guard !segments.isEmpty else { throw .invalidArgument("A \(kind) path cannot be empty") }
        for segment in segments {
            guard !segment.isEmpty else { throw .invalidArgument("The path \"\(text)\" has an empty segment") }
            guard segment != ".", segment != ".." else { throw .invalidArgument("The path \"\(text)\" has a segment \"\(segment)\"") }
            guard !(segment.hasPrefix("__") && segment.hasSuffix("__") && segment.count >= 4) else {
                throw .invalidArgument("The id \"\(segment)\" is reserved (ids may not start and end with __)")
            }
            guard segment.utf8.count <= maximumSegmentBytes else {
                throw .invalidArgument("An id in the path is longer than \(maximumSegmentBytes) bytes")
            }
            guard !segment.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw .invalidArgument("The path \"\(text)\" has a control character")
            }
        }
        guard text.utf8.count <= maximumPathBytes, segments.count <= maximumSegments else {
            throw .invalidArgument("The path is longer than \(maximumPathBytes) bytes or \(maximumSegments) segments")
        }
        guard (segments.count % 2 == 0) == document else {
            throw .invalidArgument(
                document
                    ? "\"\(text)\" is a collection, not a document: a document path has an even number of segments"
                    : "\"\(text)\" is a document, not a collection: a collection path has an odd number of segments")
        }
    }
}
