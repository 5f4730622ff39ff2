package io.herald.platform.projection;

/**
 * An event upcaster that reads an older revision of a stored type as a newer revision of the same
 * type, never as another type. A projection rebuild needs to read only the stored types its
 * handlers handle when every upcaster is one of these; any other upcaster may turn a stored type
 * into one they handle, so then every stored event is read.
 */
public interface RevisionUpcaster {
}
