import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Testing

@Suite("The functions' contract")
struct CloudFunctionsTests {
    @Test("every catalogued name is unique and in the wire's kebab-case")
    func namesAreUniqueAndKebabCase() {
        let names = CloudFunctions.names
        #expect(Set(names).count == names.count, "a name is listed twice: \(names.sorted())")
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && !name.hasPrefix("-") && !name.hasSuffix("-"), "\(name)")
        }
        #expect(names.count >= 56)
    }

    @Test("the typed entries carry the names the list holds")
    func typedEntriesAreListed() {
        let typed = [
            CloudFunctions.checkIn.name, CloudFunctions.getContacts.name, CloudFunctions.triggerAlert.name,
            CloudFunctions.listContent(reply: Data.self).name, CloudFunctions.saveContent(LocationFields.self, reply: Data.self).name,
            CloudFunctions.getDocument.name, CloudFunctions.getEscalationSettings.name,
        ]
        #expect(typed == ["check-in", "get-contacts", "trigger-alert", "list-content", "save-content", "get-document", "get-escalation-settings"])
        #expect(Set(typed).isSubset(of: Set(CloudFunctions.names)))
    }

    @Test("a function that takes nothing sends {}")
    func emptyRequestIsAnEmptyObject() throws {
        #expect(String(decoding: try JSONEncoder().encode(EmptyRequest()), as: UTF8.self) == "{}")
    }

    @Test("a field that is not a UUID is refused, naming the field and at most 40 characters of it")
    func uuidFields() throws {
        let id = UUID()
        #expect(try WireField.uuid(id.uuidString.lowercased(), field: "alertId") == id)
        let long = String(repeating: "x", count: 500)
        #expect(throws: DomainError.invalidArgument("alertId must be a UUID, not \"\(String(repeating: "x", count: 40))\"")) {
            try WireField.uuid(long, field: "alertId")
        }
        #expect(WireField.time(nil) == nil)
        #expect(WireField.time(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000000+00:00")
    }

    @Test("projected document paths are known to clients without the backend")
    func projectedPaths() throws {
        #expect(DocumentContract.isProjected(try DocumentPath("users/abc")))
        #expect(DocumentContract.isProjected(try DocumentPath("qr_lookup/abc")))
        #expect(DocumentContract.isProjected(try DocumentPath("users/abc/contacts/def")))
        #expect(!DocumentContract.isProjected(try DocumentPath("users/abc/contacts/def/notes/1")))
        #expect(DocumentContract.isProjected(try CollectionPath("users/abc/invitations")))
        #expect(!DocumentContract.isProjected(try CollectionPath("notes")))
    }
}
