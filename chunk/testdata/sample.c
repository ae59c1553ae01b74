#include <stdio.h>
#include "util.h"

/* A node of the list. */
struct node {
    int value;
    struct node *next;
};

typedef struct {
    double x, y;
} point_t;

enum color { RED, GREEN };

typedef int (*callback)(int);

// Adds two numbers.
static int add(int a, int b) {
    return a + b;
}

#ifdef DEBUG
void trace(const char *msg) {
    fprintf(stderr, "%s\n", msg);
}
#endif

int main(int argc, char **argv) {
    printf("%d\n", add(1, 2));
    return 0;
}
