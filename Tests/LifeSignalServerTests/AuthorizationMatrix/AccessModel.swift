import Foundation

/// docs/security.md's model ("Who may see and change what") as data: the authorization matrix
/// derives every expectation from here, never from what the server answers. Edit this file
/// when the model changes; a table the server exposes and this file does not name fails the
/// matrix (`AuthorizationMatrixTests`).
enum MatrixActor: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The anon key, no user token.
    case anon
    /// Signed in, no relation to the person.
    case stranger
    /// Someone the person looks after: the person is *their* responder.
    case dependent
    /// Someone who looks after the person.
    case responder
    /// The owner of the rows most cells aim at.
    case person
    /// A content editor: `app_metadata.role` is `editor`, set with the service role.
    case editor
    /// The service key: bypasses every policy.
    case service

    var description: String { rawValue }

    /// Whose rules apply: rows are judged relative to the viewer, so one rule serves every
    /// signed-in person and the relations in the data decide what each of them reads.
    var audience: Audience {
        switch self {
        case .anon: .anon
        case .stranger, .dependent, .responder, .person: .signedIn
        case .editor: .editor
        case .service: .service
        }
    }
}

enum Audience: Sendable, Hashable {
    case anon, signedIn, editor, service
}

/// Which rows a viewer reads, relative to the viewer.
indirect enum RowScope: Sendable {
    /// Every row.
    case every
    /// `row[column]` is the viewer.
    case own(String)
    /// The viewer is the responder of `row[column]` (their `contacts` row says `is_dependent`).
    case dependents(String)
    /// Content a visitor reads: `status = 'published'` and not soft-deleted.
    case published
    /// The row whose `id` is `row[column]` in `table` is one the scopes admit.
    case parent(column: String, table: String, scopes: [RowScope])
}

/// What one audience reads of a table: the rows (none when empty) and the columns hidden from
/// it. `refused` says the read is refused outright (no grant: 401 for anon, 403 signed in)
/// rather than answered with no rows; either is a deny, and the matrix accepts both for a
/// read that admits no row, so this only documents intent.
struct ReadRule: Sendable {
    var rows: [RowScope]
    var hidden: Set<String> = []

    static let none = ReadRule(rows: [])
    static let everything = ReadRule(rows: [.every])
}

/// The REST verbs of a cell.
enum Verb: String, CaseIterable, Sendable {
    case select, count, insert, upsert, put, patch, delete

    var writes: Bool { self != .select && self != .count }
}

/// One exposed table in the model.
struct TableModel: Sendable {
    let name: String
    /// What each audience reads; an audience not named reads nothing.
    var reads: [Audience: ReadRule]
    /// Who may write (every write verb). Everyone else is refused every write.
    var writers: Set<Audience> = [.service]
    /// Whether Realtime publishes the table's changes (`ChangeCapture.publishedTables`).
    var realtime: Bool = true
    /// The row a refused write aims at: the first row `target` admits when judged as `owner`
    /// (the person's own row, mostly).
    var target: (owner: MatrixActor, scope: RowScope)
    /// Verbs that cannot apply to the table whoever asks (a key the database generates cannot
    /// be `PUT`); refusals are still checked for those who may not write.
    var inapplicableForWriters: Set<Verb> = []

    func read(for actor: MatrixActor) -> ReadRule { reads[actor.audience] ?? .none }
    func mayWrite(_ actor: MatrixActor) -> Bool { writers.contains(actor.audience) }
}

/// The model, table by table (docs/security.md, "`users`, column by column" and "Other
/// tables"). `signedIn` rules are relative to the viewer: "own" is the person's own rows when
/// the person reads, and the dependents' rows are what a responder reads of the person.
enum AccessModel {
    static func signedInAndEditor(_ rule: ReadRule) -> [Audience: ReadRule] {
        [.signedIn: rule, .editor: rule, .service: .everything]
    }

    /// Content: visitors and people read published, not deleted rows without `created_by`;
    /// editors read and change everything (migration 210).
    static func content(_ name: String) -> TableModel {
        let visitor = ReadRule(rows: [.published], hidden: ["created_by"])
        return TableModel(
            name: name, reads: [.anon: visitor, .signedIn: visitor, .editor: .everything, .service: .everything],
            writers: [.editor, .service], target: (.editor, .own("created_by")))
    }

    static let tables: [TableModel] = [
        // A users row is its owner's alone through /rest/v1 and Realtime; contacts see each
        // other only through get-contacts.
        TableModel(name: "users", reads: signedInAndEditor(ReadRule(rows: [.own("id")])), target: (.person, .own("id"))),
        TableModel(
            name: "check_ins", reads: signedInAndEditor(ReadRule(rows: [.own("user_id"), .dependents("user_id")])),
            target: (.person, .own("user_id"))),
        TableModel(name: "contacts", reads: signedInAndEditor(ReadRule(rows: [.own("user_id")])), target: (.person, .own("user_id"))),
        TableModel(
            name: "contact_invitations", reads: signedInAndEditor(ReadRule(rows: [.own("inviter_id")])),
            target: (.person, .own("inviter_id"))),
        TableModel(
            name: "alerts", reads: signedInAndEditor(ReadRule(rows: [.own("user_id"), .dependents("user_id")])),
            target: (.person, .own("user_id"))),
        TableModel(
            name: "alert_responses",
            reads: signedInAndEditor(
                ReadRule(rows: [
                    .own("responder_id"),
                    .parent(column: "alert_id", table: "alerts", scopes: [.own("user_id"), .dependents("user_id")]),
                ])), target: (.person, .parent(column: "alert_id", table: "alerts", scopes: [.own("user_id")]))),
        // Who was told about an incident (for the all-clear): read by the functions only.
        TableModel(
            name: "alert_recipients", reads: [.service: .everything], realtime: false,
            target: (.person, .parent(column: "alert_id", table: "alerts", scopes: [.own("user_id")]))),
        TableModel(
            name: "pings", reads: signedInAndEditor(ReadRule(rows: [.own("sender_id"), .own("recipient_id")])),
            target: (.person, .own("recipient_id"))),
        TableModel(name: "notifications", reads: signedInAndEditor(ReadRule(rows: [.own("user_id")])), target: (.person, .own("user_id"))),
        TableModel(name: "documents", reads: signedInAndEditor(ReadRule(rows: [.own("owner_id")])), target: (.person, .own("owner_id"))),
        // Consent (docs/security.md, "Consent"): either side reads a request.
        TableModel(
            name: "contact_role_requests", reads: signedInAndEditor(ReadRule(rows: [.own("requester_id"), .own("owner_id")])),
            target: (.person, .own("owner_id"))),
        content("locations"), content("events"), content("routes"),
        // Device tokens and what was pushed to them are credentials and a device's inbox: the
        // model does not name them, so they are the service role's alone (the functions
        // register, subscribe and read them for their owner).
        TableModel(name: "push_tokens", reads: [.service: .everything], realtime: false, target: (.person, .own("user_id"))),
        TableModel(name: "topic_subscriptions", reads: [.service: .everything], realtime: false, target: (.person, .own("user_id"))),
        TableModel(
            name: "device_messages", reads: [.service: .everything], realtime: false, target: (.person, .own("user_id")),
            inapplicableForWriters: [.put]),
        // The delivery ledger holds phone numbers, email addresses and device tokens, and a
        // person's channel choices are read and changed through the functions only.
        TableModel(name: "deliveries", reads: [.service: .everything], realtime: false, target: (.person, .own("user_id"))),
        TableModel(name: "delivery_preferences", reads: [.service: .everything], realtime: false, target: (.person, .own("user_id"))),
    ]

    static func table(_ name: String) -> TableModel? { tables.first { $0.name == name } }
}
