package io.herald.query.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the chain check finds in chain rows and the events stored at their positions: nothing in a
 * chain as it was computed, and each alteration once, at its position, in its workspace.
 */
class ChainCheckTest {

    private final ObjectMapper json = new ObjectMapper();

    /** Chain rows as the chain processor writes them: positions 1..n alternating between two workspaces. */
    private List<EventStoreReader.Link> chain(int n) {
        List<EventStoreReader.Link> rows = new ArrayList<>();
        Map<String, String> heads = new java.util.HashMap<>();
        for (int i = 1; i <= n; i++) {
            String ws = i % 2 == 0 ? "acme" : "globex";
            StoredEvent event = event(i, ws, "text " + i);
            String prev = heads.getOrDefault(ws, AuditChain.ORIGIN);
            String hash = AuditChain.hash(prev, AuditChain.line(json, event, ws));
            heads.put(ws, hash);
            rows.add(new EventStoreReader.Link(new AuditChainRepository.Link(i, i, ws, prev, hash), event));
        }
        return rows;
    }

    private StoredEvent event(long position, String ws, String text) {
        return new StoredEvent(position, "pub_" + position, 0, "PublicationRequestedEvent", "2",
                "2026-12-05T09:00:0" + (position % 10) + "Z",
                json.createObjectNode().put("workspaceId", ws).put("body", text), json.createObjectNode());
    }

    private List<LocatedBreach> check(List<EventStoreReader.Link> rows) {
        ChainCheck check = new ChainCheck(json, ws -> AuditChain.ORIGIN);
        rows.forEach(check::accept);
        return check.breaches();
    }

    @Test
    void aChainAsComputedHolds() {
        assertThat(check(chain(8))).isEmpty();
    }

    @Test
    void aChangedEventIsReportedAtItsPositionInItsWorkspace() {
        List<EventStoreReader.Link> rows = chain(8);
        EventStoreReader.Link row = rows.get(4);
        rows.set(4, new EventStoreReader.Link(row.link(), event(5, "globex", "rewritten")));

        assertThat(check(rows)).singleElement().satisfies(found -> {
            assertThat(found.workspaceId()).isEqualTo("globex");
            assertThat(found.breach().publicationId()).isEqualTo("pub_5");
            assertThat(found.breach().rule()).isEqualTo(Breach.CHAIN_BREAK);
            assertThat(found.breach().detail()).startsWith("chain break at position 5:").contains("changed");
        });
    }

    @Test
    void aRemovedEventIsReportedAtItsOwnPositionAndTheNextRowStillFollowsTheChain() {
        List<EventStoreReader.Link> rows = chain(8);
        rows.set(3, new EventStoreReader.Link(rows.get(3).link(), null));

        assertThat(check(rows)).singleElement().satisfies(found -> {
            assertThat(found.workspaceId()).isEqualTo("acme");
            assertThat(found.breach().publicationId()).isEqualTo(ChainCheck.UNKNOWN_STREAM);
            assertThat(found.breach().detail()).startsWith("chain break at position 4:").contains("removed");
        });
    }

    @Test
    void aRemovedOrMovedChainRowShowsAtTheNextRowOfItsWorkspace() {
        List<EventStoreReader.Link> removed = chain(8);
        removed.remove(3);
        assertThat(check(removed)).singleElement().satisfies(found -> {
            assertThat(found.workspaceId()).isEqualTo("acme");
            assertThat(found.breach().detail()).startsWith("chain break at position 6:").contains("removed or moved");
        });

        List<EventStoreReader.Link> swapped = chain(8);
        EventStoreReader.Link second = swapped.get(1);
        swapped.set(1, swapped.get(3));
        swapped.set(3, second);
        assertThat(check(swapped)).extracting(b -> b.breach().detail())
                .anySatisfy(d -> assertThat(d).startsWith("chain break at position 4:"));
    }

    @Test
    void aSegmentStartsFromTheStoredHashBeforeIt() {
        List<EventStoreReader.Link> rows = chain(8);
        List<EventStoreReader.Link> segment = rows.subList(4, 8);
        Map<String, String> before = Map.of("acme", rows.get(3).link().hash(), "globex", rows.get(2).link().hash());
        ChainCheck check = new ChainCheck(json, before::get);
        segment.forEach(check::accept);
        assertThat(check.breaches()).isEmpty();

        ChainCheck fromTheStart = new ChainCheck(json, ws -> AuditChain.ORIGIN);
        segment.forEach(fromTheStart::accept);
        assertThat(fromTheStart.breaches()).as("the segment's first rows do not start their chains").hasSize(2);
    }
}
