/* embed.c - build helper: writes a C source defining a byte array with a file's contents.
 * usage: embed INPUT OUTPUT.c SYMBOL */
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 4) return 2;
    FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "w");
    if (!in || !out) return 1;
    fprintf(out,
            "#include <stddef.h>\nextern const unsigned char %s[];\nextern const size_t "
            "%s_size;\nconst unsigned char %s[] = {\n",
            argv[3], argv[3], argv[3]);
    int c;
    size_t n = 0;
    while ((c = fgetc(in)) != EOF) fprintf(out, "%d,%s", c, (++n % 32) ? "" : "\n");
    fprintf(out, "0};\nconst size_t %s_size = %zu;\n", argv[3], n);
    fclose(in);
    return fclose(out) ? 1 : 0;
}
