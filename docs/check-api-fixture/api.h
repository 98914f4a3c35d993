/* SPDX-License-Identifier: MIT */
/*
 * The fixture of docs/check-api.py --expect (the test
 * api-reference-selftest): expected.txt lists the violations planted here,
 * in man/ and in man-pages.txt, one of each kind.
 */
#ifndef API_H
#define API_H

/** \brief A type with its comment. */
struct good_type {
	int x;
};

/* A plain comment is not a Doxygen comment. */
struct bare_type;

enum {
	/** Commented before. */
	GOOD_FLAG = 1,
	BARE_FLAG = 2,
	TRAILING_FLAG = 4, /**< Commented after. */
};

/**
 * \brief Every field.
 * \param a The a.
 * \return The answer.
 * \rcustate None.
 * \ordering None.
 */
LFHT_API int good(int a);

/* No Doxygen comment, and no man page. */
LFHT_API void undocumented(int a);

/**
 * \brief Lacks b's parameter, the return value and the ordering section;
 * its man page is an alias to a page that does not name it.
 * \param a The a.
 * \rcustate None.
 */
static inline int partial(int a, int b)
{
	return a + b;
}

/**
 * \brief Every field; its man page is an alias to a page that is missing.
 * \param x The x.
 * \rcustate None.
 * \ordering None.
 */
#define good_macro(x) (x)

/* Internal: left out. */
#define internal_(x) (x)
static inline int helper_(int a)
{
	return a;
}

#endif /* API_H */
