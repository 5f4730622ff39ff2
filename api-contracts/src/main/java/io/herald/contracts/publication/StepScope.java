package io.herald.contracts.publication;

/**
 * How often a step before the post is planned: once for each image (an upload), or once for the
 * whole post (a container the provider builds from the caption and the images' public addresses,
 * which a later step publishes). Only steps that {@link StepRole#PREPARES_POST prepare the post}
 * have a scope that matters.
 */
public enum StepScope {
    /** One step for each image of the content, in its order. */
    PER_IMAGE,
    /**
     * One step for the post, planned even for a post without images; its success records the
     * provider's reference of what it prepared, which the post step then receives.
     */
    PER_POST
}
