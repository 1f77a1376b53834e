import Foundation
import Hummingbird
import LifeSignalBackend

/// `GET /rest/v1/`: the exposed tables as an OpenAPI 2.0 (Swagger) description, the shape
/// PostgREST serves at its root, so API tools (schemathesis in `scripts/fuzz`, client
/// generators) can find every table, column and verb.
///
/// Built from the same schema cache the routes use; only tables the caller's role may use at
/// all are listed, and each with the verbs its grants allow, so the description tells
/// anon nothing a request would not.
enum RESTOpenAPI {
    static func document(tables: [TableSchema], role: DatabaseRole, host: String?) -> [String: Any] {
        var paths: [String: Any] = [
            "/": [
                "get": [
                    "summary": "OpenAPI description (this document)", "produces": ["application/openapi+json"],
                    "responses": ["200": ["description": "OK"]],
                ]
            ]
        ]
        var definitions: [String: Any] = [:]
        for table in tables.sorted(by: { $0.name < $1.name }) {
            // Only the columns this role may read are described (content's `created_by` is an
            // editor's alone).
            let readable = role == .serviceRole ? nil : Schema.policy(for: table.name)?.readable(by: role)
            let columns = table.columns.filter { readable?.contains($0.name) ?? true }
            let grants = Set(TableCommand.allCases.filter { role == .serviceRole || Schema.policy(for: table.name)?.isGranted($0, to: role) == true })
            guard !grants.isEmpty else { continue }
            definitions[table.name] = definition(columns)
            let filters = columns.map { column -> [String: Any] in
                [
                    "name": column.name, "in": "query", "required": false, "type": "string", "format": column.type,
                    "description": "A filter: <operator>.<value>, e.g. eq.1",
                ]
            }
            let reference: [String: Any] = ["$ref": "#/definitions/\(table.name)"]
            let rows: [String: Any] = ["type": "array", "items": reference]
            var operations: [String: Any] = [:]
            if grants.contains(.select) {
                operations["get"] = [
                    "tags": [table.name], "parameters": filters + readParameters,
                    "produces": ["application/json", "application/vnd.pgrst.object+json"],
                    "responses": ["200": ["description": "OK", "schema": rows], "206": ["description": "Partial Content"]],
                ]
            }
            if grants.contains(.insert) {
                operations["post"] = [
                    "tags": [table.name], "consumes": ["application/json"],
                    "parameters": [
                        ["name": "body", "in": "body", "required": false, "schema": reference],
                        selectParameter, preferParameter,
                    ],
                    "responses": ["201": ["description": "Created"]],
                ]
            }
            if grants.contains(.update) {
                operations["patch"] = [
                    "tags": [table.name], "consumes": ["application/json"],
                    "parameters": filters + [["name": "body", "in": "body", "required": false, "schema": reference], preferParameter],
                    "responses": ["204": ["description": "No Content"]],
                ]
            }
            if grants.contains(.delete) {
                operations["delete"] = [
                    "tags": [table.name], "parameters": filters + [preferParameter],
                    "responses": ["204": ["description": "No Content"]],
                ]
            }
            paths["/\(table.name)"] = operations
        }
        var document: [String: Any] = [
            "swagger": "2.0",
            "info": ["title": "LifeSignal REST API", "version": "1", "description": "PostgREST-compatible access to LifeSignal's exposed tables"],
            "basePath": "/rest/v1", "schemes": ["http", "https"],
            "consumes": ["application/json"], "produces": ["application/json"],
            "paths": paths, "definitions": definitions,
        ]
        if let host { document["host"] = host }
        return document
    }

    private static func definition(_ columns: [ColumnSchema]) -> [String: Any] {
        var properties: [String: Any] = [:]
        for column in columns {
            var property = type(of: column)
            property["format"] = column.type
            if column.isPrimaryKey { property["description"] = "Note:\nThis is a Primary Key.<pk/>" }
            properties[column.name] = property
        }
        let required = columns.filter { !$0.isNullable }.map(\.name)
        var result: [String: Any] = ["type": "object", "properties": properties]
        if !required.isEmpty { result["required"] = required }
        return result
    }

    private static func type(of column: ColumnSchema) -> [String: Any] {
        switch column.type {
        case "integer", "bigint", "smallint": return ["type": "integer"]
        case "double precision", "numeric", "real": return ["type": "number"]
        case "boolean": return ["type": "boolean"]
        case "text[]": return ["type": "array", "items": ["type": "string"]]
        case "json", "jsonb": return [:]
        default: return ["type": "string"]
        }
    }

    private static var selectParameter: [String: Any] {
        [
            "name": "select", "in": "query", "required": false, "type": "string",
            "description": "Columns to return, e.g. id,name or alias:name",
        ]
    }
    private static var preferParameter: [String: Any] {
        [
            "name": "Prefer", "in": "header", "required": false, "type": "string",
            "enum": [
                "return=representation", "return=minimal", "count=exact",
                "resolution=merge-duplicates", "missing=default",
            ],
        ]
    }
    private static var readParameters: [[String: Any]] {
        [
            selectParameter,
            ["name": "order", "in": "query", "required": false, "type": "string", "description": "e.g. name.asc,id.desc.nullslast"],
            ["name": "limit", "in": "query", "required": false, "type": "string"],
            ["name": "offset", "in": "query", "required": false, "type": "string"],
            ["name": "Range", "in": "header", "required": false, "type": "string", "description": "<from>-[<to>]"],
            ["name": "Range-Unit", "in": "header", "required": false, "type": "string", "default": "items"],
            ["name": "Prefer", "in": "header", "required": false, "type": "string", "enum": ["count=exact"]],
        ]
    }
}
