package io.herald.query.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The stored chain against the store as it is now, one chain row after another in chain order:
 * what both the full re-verification (from the first row) and the live chain watch (a segment of
 * rows) find. A row whose event is gone is a removal; a row whose prevHash is not the stored hash
 * of the row before it in its workspace is a row removed or moved in the chain; a row whose event
 * no longer hashes to its stored hash is an event (or its hash) changed. Each break is reported
 * once, at the position where it shows, as rule {@value Breach#CHAIN_BREAK}.
 */
final class ChainCheck {

    /** The publication id of a break whose event is gone, so whose stream is unknown. */
    static final String UNKNOWN_STREAM = "";

    private final ObjectMapper json;
    private final Function<String, String> hashBefore;
    private final Map<String, String> lastHash = new HashMap<>();
    private final List<LocatedBreach> found = new ArrayList<>();

    /**
     * @param hashBefore the stored hash of the row before the first one checked, of a workspace
     *                   ({@link AuditChain#ORIGIN} when the check starts at its chain's start)
     */
    ChainCheck(ObjectMapper json, Function<String, String> hashBefore) {
        this.json = json;
        this.hashBefore = hashBefore;
    }

    void accept(EventStoreReader.Link row) {
        AuditChainRepository.Link link = row.link();
        StoredEvent event = row.event();
        String workspace = link.workspaceId();
        String expectedPrev = lastHash.containsKey(workspace) ? lastHash.get(workspace) : hashBefore.apply(workspace);
        lastHash.put(workspace, link.hash());
        if (event == null) {
            found.add(new LocatedBreach(workspace, new Breach(UNKNOWN_STREAM, Breach.CHAIN_BREAK, -1,
                    "chain break at position " + link.position() + ": the event chained there in workspace '"
                            + workspace + "' is no longer in the store (removed)")));
        } else if (!expectedPrev.equals(link.prevHash())) {
            found.add(new LocatedBreach(workspace, new Breach(event.aggregateId(), Breach.CHAIN_BREAK,
                    event.sequence(), "chain break at position " + link.position()
                            + ": the event chained before it in workspace '" + workspace
                            + "' is no longer in the chain as chained (removed or moved)")));
        } else if (!AuditChain.hash(link.prevHash(), AuditChain.line(json, event, workspace)).equals(link.hash())) {
            found.add(new LocatedBreach(workspace, new Breach(event.aggregateId(), Breach.CHAIN_BREAK,
                    event.sequence(), "chain break at position " + link.position()
                            + ": the event as stored now does not hash to the chain's hash of it (the event or its chain"
                            + " row was changed)")));
        }
    }

    List<LocatedBreach> breaches() {
        return List.copyOf(found);
    }

    /**
     * The newest checkpoint of each workspace against the tables as they are now: its chain row
     * must still hold the hash it signed, its event must still be stored, and its signature must
     * hold when it names {@code signer}'s key (null: no key to check it with).
     */
    static List<LocatedBreach> checkpoints(List<AuditChainRepository.SignedHead> heads, AuditSigner signer) {
        List<LocatedBreach> breaks = new ArrayList<>();
        for (AuditChainRepository.SignedHead head : heads) {
            AuditChainRepository.Checkpoint checkpoint = head.checkpoint();
            String where = "chain break at position " + checkpoint.position() + ": the checkpoint of workspace '"
                    + checkpoint.workspaceId() + "' signed at " + checkpoint.at();
            String detail = null;
            if (head.chainHash() == null || !head.chainHash().equals(checkpoint.hash())) {
                detail = where + " is not the chain's hash there now (the chain was rewritten)";
            } else if (head.aggregateId() == null) {
                detail = where + " names an event no longer in the store (removed)";
            } else if (signer != null && checkpoint.keyId().equals(signer.keyId()) && !AuditSigner.verify(
                    signer.publicKey(), AuditChain.signedText(checkpoint.workspaceId(), checkpoint.position(),
                            checkpoint.hash(), checkpoint.at()), checkpoint.signature())) {
                detail = where + " does not hold its signature (the checkpoint was changed)";
            }
            if (detail != null) {
                breaks.add(new LocatedBreach(checkpoint.workspaceId(), new Breach(
                        head.aggregateId() == null ? UNKNOWN_STREAM : head.aggregateId(),
                        Breach.CHAIN_BREAK, head.sequence() == null ? -1 : head.sequence(), detail)));
            }
        }
        return breaks;
    }
}
