package io.herald.query.publication;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.PublicationView;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the publication view projection keeps its rows: {@code publication_view}, or memory for a
 * point-in-time replay ({@link PublicationHistory}).
 */
interface PublicationRows {

    Optional<PublicationViewRepository.Stored> findStored(PublicationId id);

    Map<PublicationId, PublicationViewRepository.Stored> findStored(Collection<PublicationId> ids);

    void insert(PublicationView view, long sequence);

    void update(PublicationView view, long sequence);

    void saveAll(List<PublicationViewRepository.Stored> rows);

    void deleteAll();
}
