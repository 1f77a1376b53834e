import Foundation
import LifeSignalDomain

/// `get-qr-code` and `reset-qr-code`: the caller's code and when it stops linking.
public struct QRCodeResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var qrCodeId: String
    public var expiresAt: String

    public init(_ code: QRCode) {
        success = true
        qrCodeId = code.id.uuidString.lowercased()
        expiresAt = Timestamp.format(code.expiresAt)
    }
}

/// `reset-qr-code`'s reply, named as before `get-qr-code` shared it.
public typealias ResetQRCodeResponse = QRCodeResponse
/// A request to become `owner`'s responder, as both sides see it: ids and names, nothing else
/// of either person.
public struct RoleRequestResponse: Codable, Sendable, Hashable {
    public var id: String
    public var requesterId: String
    public var requesterName: String
    public var ownerId: String
    public var ownerName: String
    public var createdAt: String

    public init(_ request: RoleRequest) {
        id = request.id.uuidString.lowercased()
        requesterId = request.requesterID.description
        requesterName = request.requesterName
        ownerId = request.ownerID.description
        ownerName = request.ownerName
        createdAt = Timestamp.format(request.createdAt)
    }
}

/// `get-contacts`' `roleRequests`: those waiting for my answer, and mine waiting for theirs.
public struct RoleRequestsResponse: Codable, Sendable, Hashable {
    public var received: [RoleRequestResponse]
    public var sent: [RoleRequestResponse]

    public init(received: [RoleRequestResponse], sent: [RoleRequestResponse]) {
        self.received = received
        self.sent = sent
    }
}

/// Reply of `update-contact-roles`: the roles in force, and the request that waits for the
/// contact's consent (`null` when none), always present.
public struct RoleChangeResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var contactId: String
    public var contact: ContactResponse
    public var pendingRequest: RoleRequestResponse?

    public init(_ outcome: RoleChangeOutcome) {
        success = true
        contactId = outcome.contact.id.description
        contact = ContactResponse(outcome.contact)
        pendingRequest = outcome.pendingRequest.map(RoleRequestResponse.init)
    }

    private enum CodingKeys: String, CodingKey { case success, contactId, contact, pendingRequest }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encode(contactId, forKey: .contactId)
        try container.encode(contact, forKey: .contact)
        try container.encode(pendingRequest, forKey: .pendingRequest)
    }
}

/// `accept-role-request`, `decline-role-request`, `cancel-role-request`.
public struct RoleRequestIDRequest: Codable, Sendable {
    public var requestId: String
    public init(requestId: String) { self.requestId = requestId }
}

/// Reply of `accept-role-request`: the requester, now the caller's responder.
public struct AcceptRoleRequestResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var contact: ContactResponse

    public init(success: Bool, contact: ContactResponse) {
        self.success = success
        self.contact = contact
    }
}
