package io.herald.contracts.publication;

/**
 * Where a step kind stands beside the publication's post, and so what follows it and whether the
 * publication's status rests on it.
 */
public enum StepRole {
    /**
     * Before the post (an image upload, a container): the next step of the kind, or the post, follows
     * its success; its failure fails the publication, with nothing posted yet.
     */
    PREPARES_POST,
    /** The post itself (create, update, delete, publish a container): the publication's status follows it. */
    MAKES_POST,
    /**
     * After the post (a first comment): the post stays SUCCEEDED whatever becomes of it, and a
     * failure or unknown outcome puts the publication in the decision queue for this step.
     */
    FOLLOWS_POST
}
